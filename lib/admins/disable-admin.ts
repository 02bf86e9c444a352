import { db } from "../db/client";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { appError } from "../errors";

/**
 * Disables an administrator: sign-in is refused from now on (answered like a
 * wrong password) and every open session ends at once (session version bump).
 */
export async function disableAdmin(email: string, { actor }: { actor: Actor }): Promise<{ id: number; email: string }> {
  return db().$transaction(async (tx) => {
    const admin = await tx.adminUser.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true } });
    if (!admin) throw appError("not_found", "no such administrator");
    await tx.adminUser.update({ where: { id: admin.id }, data: { isActive: false, sessionVersion: { increment: 1 } } });
    await writeAuditLog(tx, { actor, action: "admin.disabled", targetType: "admin_user", targetId: String(admin.id) });
    return admin;
  });
}
