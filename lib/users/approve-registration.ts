import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";

/** Issue 24.1: an administrator approves a self-registered buyer, who may then create keys and order. Idempotent. */
export async function approveRegistration({ userId, actor }: { userId: string; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, email: true, registrationPending: true } });
    if (!user) throw appError("not_found", "no such buyer");
    if (!user.registrationPending) return { id: user.id, email: user.email, approved: true };
    await tx.user.update({ where: { id: user.id }, data: { registrationPending: false } });
    await writeAuditLog(tx, {
      actor,
      action: "user.approve_registration",
      targetType: "user",
      targetId: user.id,
      details: { email: user.email },
    });
    return { id: user.id, email: user.email, approved: true };
  });
}
