import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { orderIdByNo } from "./order-id-by-no";
import { FailReasonSchema } from "./manual-input";
import { transitionOrder } from "./transition-order";
import type { Actor } from "../audit/actor";
import { consumeOnceToken } from "../audit/consume-once-token";
import { writeAuditLog } from "../audit/write-audit-log";

export { FailReasonSchema };

export interface FailOrderInput {
  orderNo: string;
  /** Shown to a Profile P buyer as error_message: short, no secrets. */
  reason: string;
  actor: Actor;
  /** The console form's one-time token: a second submission of it changes nothing (AlreadyDoneError). */
  onceToken?: string;
}

/**
 * Manual failure (admin UI, `npm run cli -- order:fail`): a processing or
 * review order becomes failed, its points are refunded with a ledger row and
 * its stock released (D22), its Profile U callback is queued, and the audit
 * log records who did it and why. Refuses any other state with a clear 409.
 */
export async function failOrder(input: FailOrderInput) {
  reasonOf(input.reason); // refused before a connection is taken
  return db().$transaction((tx) => failOrderIn(tx, input));
}

function reasonOf(reason: string): string {
  const checked = FailReasonSchema.safeParse(reason);
  if (!checked.success) throw appError("bad_request", `reason ${checked.error.issues[0].message}`);
  return checked.data;
}

/** failOrder inside the caller's transaction (issue 39: a fulfiller's lease and idempotency key commit with it). */
export async function failOrderIn(tx: Tx, input: FailOrderInput) {
  const reason = reasonOf(input.reason);
  const actor = input.actor;
  await consumeOnceToken(tx, input.onceToken, "order.fail");
  const orderId = await orderIdByNo(tx, input.orderNo);
  const result = await transitionOrder(tx, orderId, { to: "failed", reason, adminUserId: actor.kind === "admin" ? actor.id : undefined });
  await writeAuditLog(tx, {
    actor,
    action: "order.fail",
    targetType: "order",
    targetId: result.orderNo,
    details: { orderId, from: result.from, reason },
  });
  return { orderId, orderNo: result.orderNo, status: "failed" as const, reason, callbackQueued: result.callbackId !== null };
}
