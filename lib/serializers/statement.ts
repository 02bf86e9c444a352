import type { Statement, StatementRow } from "../points/list-statement";
import { formatAmount } from "../protocol/amount";

// The balance statement on the wire (docs/decisions/0019-balance-statement.md),
// the same in both profiles. order_id is the Order's id, which is what
// "order_id" means on every order response of both profiles
// (serializers/order.ts), so a downstream can match a row to its order.

/**
 * Order and refund rows carry a fixed text: their ledger reason holds our
 * order number, already in order_no. An adjustment shows the operator's
 * reason, which was written for this buyer ("admin: goodwill").
 */
export const STATEMENT_NOTES = {
  order: "order payment",
  refund: "refund of a failed order",
  partialRefund: "partial refund (after-sales)",
  topup: "top-up",
} as const;

function rowWire(row: StatementRow) {
  return {
    id: Number(row.id),
    created_at: row.createdAt.toISOString(),
    type: row.kind,
    amount: formatAmount(row.deltaCents),
    balance_after: formatAmount(row.balanceAfterCents),
    unit_price: row.unitPriceCents === null ? null : formatAmount(row.unitPriceCents),
    price_rule: row.priceRule,
    order_id: row.orderId,
    order_no: row.orderNo,
    payment_no: row.paymentNo,
    note:
      row.kind === "adjustment"
        ? row.reason
        : row.kind === "refund" && row.partial
          ? STATEMENT_NOTES.partialRefund
          : STATEMENT_NOTES[row.kind],
  };
}

export function statementWire(statement: Statement, page: number, pageSize: number) {
  return {
    ok: true as const,
    balance: formatAmount(statement.balanceCents),
    credit_limit: formatAmount(statement.creditLimitCents),
    items: statement.rows.map(rowWire),
    total: statement.total,
    page,
    page_size: pageSize,
  };
}
