import { z } from "zod";
import { db } from "../db/client";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { appError } from "../errors";
import { hashPassword, MIN_PASSWORD_LENGTH } from "../crypto/password";

export const NewPasswordSchema = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024);

/**
 * Replaces an administrator's password and, in the same UPDATE, bumps the
 * session version: every session of that admin (other browsers, a stolen
 * cookie, and the caller's own) ends at once. The console checks the current
 * password first (change-own-password.ts); the CLI is the operator's reset.
 */
export async function setAdminPassword(adminId: number, newPassword: string, { actor }: { actor: Actor }): Promise<void> {
  const parsed = NewPasswordSchema.safeParse(newPassword);
  if (!parsed.success) throw appError("bad_request", `password: ${parsed.error.issues[0].message}`);
  const passwordHash = await hashPassword(parsed.data);
  await db().$transaction(async (tx) => {
    const { count } = await tx.adminUser.updateMany({
      where: { id: adminId },
      data: { passwordHash, sessionVersion: { increment: 1 }, passwordChangeRequired: false },
    });
    if (count !== 1) throw appError("not_found", "no such administrator");
    await writeAuditLog(tx, { actor, action: "admin.password_changed", targetType: "admin_user", targetId: String(adminId) });
  });
}
