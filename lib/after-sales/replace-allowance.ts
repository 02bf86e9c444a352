import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { formatAmount } from "../protocol/amount";

// Issue 33.4: after-sales never gives more than the order was worth. Two
// rules, each kept here once and read under the order's row lock (open-claim,
// resolve-claim), so concurrent claims and resolutions of one order see each
// other's outcome:
// - an order refunded in full is closed: a new claim answers 409
//   after_sales_closed and a replace is refused the same way (its money is
//   back with the buyer; another key would be a gift);
// - one line is replaced at most `Product.afterSalesReplaces` times (default
//   once) within the window; a further claim on it is refunded or rejected,
//   never replaced (409 replace_limit_reached), since each replace is another
//   card key or another upstream purchase.

/** The part of an order the two rules read. */
export interface AllowanceOrder {
  id: number;
  orderNo: string;
  amountCents: bigint;
  refundedCents: bigint;
  afterSalesReplaces: number;
}

/** Everything paid is back with the buyer (an order of 0.00 never is: nothing was refunded). */
export function refundedInFull(order: Pick<AllowanceOrder, "amountCents" | "refundedCents">): boolean {
  return order.refundedCents > 0n && order.refundedCents >= order.amountCents;
}

/** 409 after_sales_closed for an order refunded in full; `what` says what was refused. */
export function refuseWhenRefundedInFull(order: AllowanceOrder, what: "claim" | "replace"): void {
  if (!refundedInFull(order)) return;
  throw appError(
    "after_sales_closed",
    `order ${order.orderNo} is refunded in full (${formatAmount(order.refundedCents)} of ${formatAmount(order.amountCents)}): ${
      what === "claim" ? "no further claims" : "a replace is refused"
    }`,
  );
}

/** How many times each line of these orders was replaced (claims in state replaced), keyed "orderId:line". */
export async function replacesOfLines(tx: Tx, orderIds: number[]): Promise<Map<string, number>> {
  const rows = orderIds.length
    ? await tx.afterSalesClaim.groupBy({
        by: ["orderId", "line"],
        where: { orderId: { in: orderIds }, state: "replaced" },
        _count: { _all: true },
      })
    : [];
  return new Map(rows.map((r) => [`${r.orderId}:${r.line}`, r._count._all]));
}

/**
 * Before a replace starts (a key taken, a purchase started or a typed line
 * stored), with the order locked: refused when the order is refunded in full
 * or the line has used up its replacements. A purchase already running for
 * the claim was allowed when it started and resolves it regardless.
 */
export async function refuseReplaceBeyondAllowance(tx: Tx, order: AllowanceOrder, line: number): Promise<void> {
  refuseWhenRefundedInFull(order, "replace");
  const used = (await replacesOfLines(tx, [order.id])).get(`${order.id}:${line}`) ?? 0;
  if (used < order.afterSalesReplaces) return;
  throw appError(
    "replace_limit_reached",
    order.afterSalesReplaces === 0
      ? `this product's claims are refunded or rejected, never replaced: refund or reject the claim`
      : `line ${line} was replaced ${used} time(s) already; this product allows ${order.afterSalesReplaces} per line within the window: refund or reject the claim`,
  );
}
