import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { changeBalance } from "../points/change-balance";
import { formatAmount } from "../protocol/amount";

/**
 * Transaction options of the after-sales services: the row lock on the order
 * queues concurrent clicks, CLI calls and upstream answers; under load they
 * wait for a pool connection and for each other rather than fail after
 * Prisma's default 2 s (P2028), which would turn a queue into errors.
 */
export const AFTER_SALES_TX = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * THE rule of partial refunds (issue 26.4): a delivered order gives back at
 * most what it was paid, in all. One guarded UPDATE adds to
 * Order.refundedCents only while the sum stays within amountCents (and the
 * CHECK Order_refunded_within_amount refuses anything else), then the buyer's
 * balance rises with a ledger row carrying the order id, in the caller's
 * transaction. Concurrent refunds of one order queue on the row lock; the
 * second sees the first's sum. Returns the order's new refunded total.
 */
export async function applyRefund(
  tx: Tx,
  input: { orderId: number; cents: bigint; reason: string; adminUserId?: number },
): Promise<bigint> {
  if (input.cents <= 0n) throw appError("bad_request", "a refund must be more than 0.00");
  const rows = await tx.$queryRaw<{ userId: string; orderNo: string; refundedCents: bigint }[]>`
    UPDATE "Order" SET "refundedCents" = "refundedCents" + ${input.cents}, "updatedAt" = now()
    WHERE "id" = ${input.orderId} AND "status" = 'delivered' AND "refundedCents" + ${input.cents} <= "amountCents"
    RETURNING "userId"::text AS "userId", "orderNo", "refundedCents"`;
  if (!rows.length) {
    const order = await tx.order.findUnique({
      where: { id: input.orderId },
      select: { status: true, amountCents: true, refundedCents: true, orderNo: true },
    });
    if (!order) throw appError("order_not_found", "order not found");
    if (order.status !== "delivered")
      throw appError("invalid_transition", `order ${order.orderNo} is ${order.status}; only a delivered order is refunded in part`);
    throw appError(
      "refund_exceeds_paid",
      `order ${order.orderNo} was paid ${formatAmount(order.amountCents)} and ${formatAmount(order.refundedCents)} is refunded already; ${formatAmount(input.cents)} more would exceed it`,
    );
  }
  const { userId, orderNo, refundedCents } = rows[0];
  await changeBalance(tx, {
    userId,
    deltaCents: input.cents,
    reason: `refund: order ${orderNo} ${input.reason}`.slice(0, 500),
    orderId: input.orderId,
    adminUserId: input.adminUserId,
  });
  return refundedCents;
}
