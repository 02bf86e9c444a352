import { db } from "../db/client";
import { appError } from "../errors";
import { reserveAttempt, clearAttempts } from "../admin-auth/attempt-counter";
import type { AdminSession } from "../admin-auth/admin-session";
import { verifyPassword } from "../crypto/password";
import { setAdminPassword } from "./set-admin-password";
import { adminActor } from "../audit/actor";

const LIMIT = 5;
const WINDOW_SECONDS = 15 * 60;

/**
 * The console's password change: the current password is required, so a
 * borrowed or stolen session cannot take the account over. Guesses at the
 * current password are counted like sign-in guesses (five per 15 minutes),
 * reserved before scrypt runs.
 */
export async function changeOwnPassword(admin: AdminSession, currentPassword: string, newPassword: string): Promise<void> {
  const key = `pw-change:${admin.id}`;
  if (!(await reserveAttempt(key, LIMIT, WINDOW_SECONDS)).allowed)
    throw appError("rate_limited", "too many attempts; try again in 15 minutes");
  const row = await db().adminUser.findUniqueOrThrow({ where: { id: admin.id }, select: { passwordHash: true } });
  if (!(await verifyPassword(currentPassword.slice(0, 1024), row.passwordHash)))
    throw appError("bad_request", "the current password is wrong");
  await setAdminPassword(admin.id, newPassword, { actor: adminActor(admin) });
  await clearAttempts(key);
}
