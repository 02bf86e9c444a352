import { db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { accountPendingError } from "../buyer-access/approved-buyer";
import type { PriceRule } from "../order-read/order-view";

export interface ListStatementInput {
  userId: string;
  page: number;
  pageSize: number;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export type StatementRowKind = "order" | "refund" | "topup" | "adjustment";

export interface StatementRow {
  id: bigint;
  createdAt: Date;
  kind: StatementRowKind;
  deltaCents: bigint;
  balanceAfterCents: bigint;
  orderId: number | null;
  orderNo: string | null;
  /** A refund of a delivered order: partial (after-sales, issue 26.3), not a failed order's. */
  partial: boolean;
  reason: string;
  /** The top-up request this row credited (an "adjustment" on the wire; the portal says "top-up"). */
  topUpId: number | null;
  /** Issue 36: the payment this row credited (a "topup" row). */
  paymentNo: string | null;
  /** Issue 38: on an order row, the order's unit price and the rule that set it. */
  unitPriceCents: bigint | null;
  priceRule: PriceRule | null;
}

export interface Statement {
  balanceCents: bigint;
  creditLimitCents: bigint;
  total: number;
  rows: StatementRow[];
}

/**
 * What a ledger row is, for its owner: a debit of an order (place_order), the
 * refund of a failed one (transitionOrder, "refund: …"), or anything else:
 * opening balance, an operator's adjustment (adjustPoints).
 */
export function statementRowKind(row: { orderId: number | null; deltaCents: bigint; paymentId?: number | null }): StatementRowKind {
  if (row.paymentId != null) return "topup";
  if (row.orderId === null) return "adjustment";
  if (row.deltaCents < 0n) return "order";
  return row.deltaCents > 0n ? "refund" : "adjustment";
}

/**
 * One page of a user's points ledger, newest first (id DESC), with the
 * balance and the number of rows in the window (docs/decisions/0019). The
 * ledger is the truth (decision 0003), so the rows of every page add up to
 * the balance; the three reads share one REPEATABLE READ snapshot so that an
 * order committed between them cannot make the answer disagree with itself.
 * Both ledger queries walk the (userId, id) index of this one user, and the
 * page is LIMITed; a page past the end is not queried at all.
 */
export async function listStatement({ userId, page, pageSize, from, to }: ListStatementInput): Promise<Statement> {
  const where: Prisma.PointsLedgerWhereInput = { userId };
  if (from || to) where.createdAt = { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) };
  const offset = (page - 1) * pageSize;
  return db().$transaction(
    async (tx) => {
      const user = await tx.user.findUniqueOrThrow({
        where: { id: userId },
        select: { balanceCents: true, creditLimitCents: true, registrationPending: true },
      });
      if (user.registrationPending) throw accountPendingError(); // issue 33.3
      const total = await tx.pointsLedger.count({ where });
      const rows =
        offset >= total
          ? []
          : await tx.pointsLedger.findMany({
              where,
              orderBy: { id: "desc" },
              skip: offset,
              take: pageSize,
              select: {
                id: true,
                createdAt: true,
                deltaCents: true,
                balanceAfterCents: true,
                reason: true,
                orderId: true,
                order: { select: { orderNo: true, status: true, items: { select: { unitPriceCents: true, priceRule: true }, take: 1 } } },
                paymentId: true,
                payment: { select: { paymentNo: true } },
              },
            });
      const topUps = rows.length
        ? await tx.topUpRequest.findMany({ where: { ledgerId: { in: rows.map((r) => r.id) } }, select: { id: true, ledgerId: true } })
        : [];
      const topUpOf = new Map(topUps.map((t) => [t.ledgerId, t.id]));
      return {
        balanceCents: user.balanceCents,
        creditLimitCents: user.creditLimitCents,
        total,
        rows: rows.map((r) => ({
          id: r.id,
          createdAt: r.createdAt,
          kind: statementRowKind(r),
          deltaCents: r.deltaCents,
          balanceAfterCents: r.balanceAfterCents,
          orderId: r.orderId,
          orderNo: r.order?.orderNo ?? null,
          partial: r.order?.status === "delivered",
          reason: r.reason,
          topUpId: topUpOf.get(r.id) ?? null,
          paymentNo: r.payment?.paymentNo ?? null,
          ...orderPrice(statementRowKind(r), r.order?.items[0]),
        })),
      };
    },
    { isolationLevel: "RepeatableRead" },
  );
}

/** An order row shows the order's unit price and its rule (issue 38); other rows show none. */
function orderPrice(kind: StatementRowKind, item: { unitPriceCents: bigint; priceRule: string } | undefined) {
  return kind === "order" && item
    ? { unitPriceCents: item.unitPriceCents, priceRule: item.priceRule as PriceRule }
    : { unitPriceCents: null, priceRule: null };
}
