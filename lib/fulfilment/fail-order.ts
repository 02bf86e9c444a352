import { db } from "../db/client";
import { appError } from "../errors";
import { orderIdByNo } from "./order-id-by-no";
import { transitionOrder } from "./transition-order";
import { writeAuditLog, type AuditActor } from "../audit/write-audit-log";

export interface FailOrderInput extends AuditActor {
  orderNo: string;
  /** Shown to a Profile P buyer as error_message: short, no secrets. */
  reason: string;
}

/**
 * Manual failure (admin UI, `npm run cli -- order:fail`): a processing or
 * review order becomes failed, its points are refunded with a ledger row and
 * its stock released (D22), its Profile U callback is queued, and the audit
 * log records who did it and why. Refuses any other state with a clear 409.
 */
export async function failOrder(input: FailOrderInput) {
  const reason = input.reason.trim();
  if (!reason) throw appError("bad_request", "a reason is required");
  if (reason.length > 200) throw appError("bad_request", "reason must be at most 200 characters");
  return db().$transaction(async (tx) => {
    const orderId = await orderIdByNo(tx, input.orderNo);
    const result = await transitionOrder(tx, orderId, { to: "failed", reason, adminUserId: input.adminUserId });
    await writeAuditLog(tx, {
      adminUserId: input.adminUserId, actor: input.actor, ip: input.ip, action: "order.fail", targetType: "order",
      targetId: result.orderNo, details: { orderId, from: result.from, reason },
    });
    return { orderId, orderNo: result.orderNo, status: "failed" as const, reason, callbackQueued: result.callbackId !== null };
  });
}
