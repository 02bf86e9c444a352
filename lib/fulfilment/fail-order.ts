import { db } from "../db/client";
import { appError } from "../errors";
import { orderIdByNo } from "./order-id-by-no";
import { FailReasonSchema } from "./manual-input";
import { transitionOrder } from "./transition-order";
import { writeAuditLog, type AuditActor } from "../audit/write-audit-log";

export { FailReasonSchema };

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
  const checked = FailReasonSchema.safeParse(input.reason);
  if (!checked.success) throw appError("bad_request", `reason ${checked.error.issues[0].message}`);
  const reason = checked.data;
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
