import { z } from "zod";
import { verifyPassword } from "../crypto/password";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { releaseSignIn, reserveSignIn } from "./sign-in-throttle";
import { readTotpState, signInName, totpAudit, type TotpOwner } from "./totp-account";

/**
 * Issue 33.6: a signed-in session is not proof of the password (a stolen
 * cookie is enough for a session). Changing how the account signs in (two-
 * factor begin, enable, disable) asks for the current password again, and
 * each try is reserved on the sign-in throttle's own counters (decision
 * 0011) under the account's sign-in name and this client's address, before
 * scrypt runs: a stolen session gets no guesses beyond what the sign-in form
 * gives, and a lock-out here is a lock-out there. A right password gives its
 * reservation back, as a sign-in does; a wrong one is audited.
 */
/** The current password as the two-factor forms send it (console and portal alike). */
export const CurrentPasswordSchema = z.string().min(1, "is required").max(1024);

/** Turning two-factor on: a code from the app and the current password. */
export const EnableTotpSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "must be 6 digits"),
  password: CurrentPasswordSchema,
});

export async function confirmOwnPassword(owner: TotpOwner, password: string): Promise<void> {
  const ip = owner.actor.ip || "unknown";
  const gate = await reserveSignIn(signInName(owner.account.kind, owner.email), ip, false);
  if (!gate.ok) throw appError("rate_limited", "too many wrong passwords; try again in 15 minutes");
  const { passwordHash } = await readTotpState(db(), owner.account);
  if (!passwordHash || !(await verifyPassword(password.slice(0, 1024), passwordHash))) {
    await writeAuditLog(db(), { actor: owner.actor, ...totpAudit(owner.account, "password_confirm_failed") });
    throw appError("bad_request", "wrong password");
  }
  await releaseSignIn(gate.keys);
}
