import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";
import { loadOrderView, type OrderView } from "../order-read/order-view";
import { dujiaoCallbackWire } from "../serializers/dujiao-next";
import { orderCallbackWire } from "../serializers/order";
import { sealCallbackBody } from "./callback-body";

export const callbackJobKey = (callbackId: number) => `callback:${callbackId}`;
/** Attempts graphile-worker makes when the handler itself fails (database down); HTTP failures follow our own schedule. */
const HANDLER_MAX_ATTEMPTS = 8;

/**
 * D26/D28: call inside the transaction that moved the order's public status
 * to `delivered` or `failed` (create-order's auto delivery, the state
 * machine). For a Profile U order with a callback_url it stores the Callback
 * row with the exact body (section 6, sealed: it holds card keys) and
 * enqueues its delivery job, both committing with the status change. Returns
 * the Callback id, or null when no callback is due. Pass `view` when the
 * caller already holds the order as it now is (saves a load and a decrypt).
 */
export async function queueOrderCallback(tx: Tx, input: { orderId: number; view?: OrderView }): Promise<number | null> {
  const order = await tx.order.findUniqueOrThrow({
    where: { id: input.orderId },
    select: { id: true, credentialId: true, profile: true, callbackUrl: true, status: true, wireDialect: true },
  });
  if (order.profile !== "U" || !order.callbackUrl) return null;
  if (order.status !== "delivered" && order.status !== "failed") return null; // D26: public changes only
  const view = input.view ?? (await loadOrderView(tx, order.credentialId, order.id));
  if (!view) return null;
  const now = { ...view, status: order.status };
  // Decision 0090: a Dujiao-Next buyer's order is reported in its callback shape.
  const wire = order.wireDialect === "dujiao_next" ? dujiaoCallbackWire(now) : orderCallbackWire(now);
  const body = sealCallbackBody(JSON.stringify(wire));
  const callback = await tx.callback.create({
    data: { orderId: order.id, url: order.callbackUrl, body, status: "pending", nextAttemptAt: new Date() },
    select: { id: true },
  });
  await enqueueCallbackAttempt(tx, callback.id, 0);
  return callback.id;
}

/** Schedules attempt number `attempt` (0 = first) of a stored callback. */
export async function enqueueCallbackAttempt(tx: Tx, callbackId: number, attempt: number, runAt?: Date): Promise<void> {
  await enqueueJob(
    tx,
    "callback:deliver",
    { callbackId, attempt },
    {
      jobKey: callbackJobKey(callbackId),
      runAt,
      maxAttempts: HANDLER_MAX_ATTEMPTS,
    },
  );
}
