import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { enqueueJob } from "../jobs/enqueue-job";
import { PURCHASE_HANDLER_MAX_ATTEMPTS, purchaseJobKey } from "./queue-purchase";

/**
 * Admin review queue, "retry the upstream check": an order in unknown_review
 * gets ONE immediate create-or-poll of its upstream purchase (job
 * "upstream:purchase" with recheck, run-purchase.ts). The create repeats the
 * same downstream_order_no, so it finds the upstream order rather than buying
 * twice. A final upstream answer delivers or fails (refunds) our order; any
 * other answer leaves it in review with the new last error. The job and the
 * audit row commit together. Refuses an order not in review (409).
 */
export async function recheckUpstreamPurchase(input: { orderNo: string; actor: Actor }, inTx?: Tx) {
  // inTx: the caller's transaction (a Telegram press commits with its update's offset, telegram-updates.ts).
  const run = <T>(f: (tx: Tx) => Promise<T>) => (inTx ? f(inTx) : db().$transaction(f));
  return run(async (tx) => {
    const order = await tx.order.findUnique({
      where: { orderNo: input.orderNo.trim() },
      select: { id: true, orderNo: true, status: true, upstreamPurchase: { select: { id: true, status: true } } },
    });
    if (!order) throw appError("order_not_found", `order ${input.orderNo.trim()} not found`);
    if (order.status !== "unknown_review") throw appError("order_not_in_review", `order ${order.orderNo} is not waiting for review`);
    const purchase = order.upstreamPurchase;
    if (!purchase || purchase.status !== "unknown")
      throw appError("no_upstream_purchase", `order ${order.orderNo} has no upstream purchase to check`);
    await enqueueJob(
      tx,
      "upstream:purchase",
      { purchaseId: purchase.id, recheck: true },
      {
        jobKey: purchaseJobKey(purchase.id),
        maxAttempts: PURCHASE_HANDLER_MAX_ATTEMPTS,
      },
    );
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "order.upstream_recheck",
      targetType: "order",
      targetId: order.orderNo,
      details: { orderId: order.id, purchaseId: purchase.id },
    });
    return { orderNo: order.orderNo, purchaseId: purchase.id, queued: true as const };
  });
}
