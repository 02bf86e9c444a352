import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";

/**
 * Issue 24.1: an administrator approves a self-registered buyer, who may then
 * create keys and order. Idempotent: the guarded UPDATE lets exactly one of
 * two approvals at once (two administrators, a double click) record it.
 */
export async function approveRegistration({ userId, actor }: { userId: string; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
    if (!user) throw appError("not_found", "no such buyer");
    const { count } = await tx.user.updateMany({ where: { id: user.id, registrationPending: true }, data: { registrationPending: false } });
    if (count === 1) {
      await writeAuditLog(tx, {
        actor,
        action: "user.approve_registration",
        targetType: "user",
        targetId: user.id,
        details: { email: user.email },
      });
    }
    return { id: user.id, email: user.email, approved: true };
  });
}
