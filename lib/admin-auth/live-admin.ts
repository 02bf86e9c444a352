import { db } from "../db/client";

/**
 * The admin a session cookie names, if that session is still live: the account
 * is active and the cookie was issued under its current session version.
 * Sign-out, a password change and disabling the admin bump the version, which
 * ends every session of that admin at once on every app instance.
 */
export async function findLiveAdmin(
  adminId: unknown,
  sessionVersion: unknown,
): Promise<{ id: number; email: string; passwordChangeRequired: boolean } | null> {
  if (typeof adminId !== "number" || !Number.isSafeInteger(adminId) || typeof sessionVersion !== "number") return null;
  const admin = await db().adminUser.findUnique({
    where: { id: adminId },
    select: { id: true, email: true, isActive: true, sessionVersion: true, passwordChangeRequired: true },
  });
  if (!admin?.isActive || admin.sessionVersion !== sessionVersion) return null;
  return { id: admin.id, email: admin.email, passwordChangeRequired: admin.passwordChangeRequired };
}

/** Ends every session of one admin (the cookie's version no longer matches). */
export async function endAllSessions(adminId: number, onlyIfVersion?: number): Promise<boolean> {
  const { count } = await db().adminUser.updateMany({
    where: { id: adminId, ...(onlyIfVersion === undefined ? {} : { sessionVersion: onlyIfVersion }) },
    data: { sessionVersion: { increment: 1 } },
  });
  return count === 1;
}
