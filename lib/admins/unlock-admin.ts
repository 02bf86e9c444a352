import { db } from "../db/client";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { appError } from "../errors";
import { unlockAccount } from "../admin-auth/sign-in-throttle";

/**
 * Lifts the sign-in lock-outs of one administrator at every address, and the
 * account-wide slow-down. Per-address throttles (which are not about this
 * account) stay.
 */
export async function unlockAdmin(email: string, { actor }: { actor: Actor }): Promise<{ id: number; email: string; cleared: number }> {
  const normal = email.trim().toLowerCase();
  const admin = await db().adminUser.findUnique({ where: { email: normal }, select: { id: true, email: true } });
  if (!admin) throw appError("not_found", "no such administrator");
  return db().$transaction(async (tx) => {
    const cleared = await unlockAccount(admin.email, tx);
    await writeAuditLog(tx, {
      actor,
      action: "admin.unlocked",
      targetType: "admin_user",
      targetId: String(admin.id),
      details: { cleared },
    });
    return { ...admin, cleared };
  });
}
