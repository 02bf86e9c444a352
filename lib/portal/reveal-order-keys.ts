import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { deliveredLines } from "../order-read/order-view";
import { assertApprovedBuyer } from "../buyer-access/approved-buyer";

/**
 * Issue 24.2: the delivered card keys (or delivered lines) of one of the
 * buyer's orders, in clear, because the buyer pressed "reveal". Audited in
 * the same transaction before the lines are returned (ids and counts, never a
 * key). The portal's only way to see a key: pages and listings never hold
 * one. Another buyer's order answers as a missing one (issue 24.3).
 */
export async function revealOrderKeys({ userId, orderNo, actor }: { userId: string; orderNo: string; actor: Actor }): Promise<string[]> {
  return db().$transaction(async (tx) => {
    await assertApprovedBuyer(userId, tx); // issue 33.3
    const order = await tx.order.findFirst({
      where: { orderNo, userId },
      select: { id: true, orderNo: true, status: true, fulfillment: { select: { payloadCiphertext: true } } },
    });
    if (!order) throw appError("not_found", "no such order");
    if (order.status !== "delivered" || !order.fulfillment) throw appError("conflict", "this order has nothing delivered to reveal");
    const lines = await deliveredLines(tx, order.id, order.fulfillment.payloadCiphertext);
    await writeAuditLog(tx, {
      actor,
      action: "order.keys_reveal",
      targetType: "order",
      targetId: order.orderNo,
      details: { orderId: order.id, lines: lines.length },
    });
    return lines;
  });
}
