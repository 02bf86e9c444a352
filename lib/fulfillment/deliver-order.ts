import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { orderIdByNo } from "./order-id-by-no";
import { DeliveryPayloadSchema, payloadLines } from "./manual-input";
import { transitionOrder } from "./transition-order";
import type { Actor } from "../audit/actor";
import { consumeOnceToken } from "../audit/consume-once-token";
import { writeAuditLog } from "../audit/write-audit-log";

export { DeliveryPayloadSchema, payloadLines };

export interface DeliverOrderInput {
  orderNo: string;
  /** The delivery text; each non-empty line becomes one delivery_data entry (D21). */
  payloadText: string;
  actor: Actor;
  /** The console form's one-time token: a second submission of it changes nothing (AlreadyDoneError). */
  onceToken?: string;
}

/**
 * Manual fulfillment (admin UI, `npm run cli -- order:deliver`): a processing
 * or review order becomes delivered with the given lines, its Profile U
 * callback is queued, and the audit log records who did it (line count only,
 * never the payload). Refuses any other state with a clear 409.
 */
export async function deliverOrder(input: DeliverOrderInput) {
  linesOf(input.payloadText); // refused before a connection is taken
  return db().$transaction((tx) => deliverOrderIn(tx, input));
}

function linesOf(payloadText: string): string[] {
  const checked = DeliveryPayloadSchema.safeParse(payloadText);
  if (!checked.success) throw appError("bad_request", `payload ${checked.error.issues[0].message}`);
  return payloadLines(checked.data);
}

/** deliverOrder inside the caller's transaction (issue 39: a fulfiller's lease and idempotency key commit with it). */
export async function deliverOrderIn(tx: Tx, input: DeliverOrderInput) {
  const lines = linesOf(input.payloadText);
  const actor = input.actor;
  await consumeOnceToken(tx, input.onceToken, "order.deliver");
  const orderId = await orderIdByNo(tx, input.orderNo);
  const result = await transitionOrder(tx, orderId, {
    to: "delivered",
    lines,
    source: "manual",
    adminUserId: actor.kind === "admin" ? actor.id : undefined,
  });
  await writeAuditLog(tx, {
    actor,
    action: "order.deliver",
    targetType: "order",
    targetId: result.orderNo,
    details: { orderId, from: result.from, lines: lines.length },
  });
  return {
    orderId,
    orderNo: result.orderNo,
    status: "delivered" as const,
    lines: lines.length,
    callbackQueued: result.callbackId !== null,
  };
}
