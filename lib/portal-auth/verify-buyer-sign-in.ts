import { db } from "../db/client";
import { verifyPassword } from "../admins/password";
import { writeAuditLog } from "../audit/write-audit-log";
import { reserveSignIn, resetAfterSignIn } from "../admin-auth/sign-in-throttle";

// A buyer's portal sign-in, under the administrators' guessing policy
// (decision 0011, lib/admin-auth/sign-in-throttle.ts): per address, per
// (account, address) lock-out, per account without a device cookie; each
// attempt reserved in PostgreSQL before scrypt runs. Buyer accounts are
// counted under "buyer:<e-mail>", apart from an administrator with the same
// e-mail; the per-address counter is shared, since it bounds one address's
// scrypt work whichever door it knocks on.

export interface BuyerSignInAttempt {
  email: string;
  password: string;
  ip?: string | null;
  trustedDevice?: boolean;
}

export type BuyerSignInResult = { ok: true; userId: string; email: string } | { ok: false; reason: "invalid" };

const DUMMY_HASH = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const MAX_PASSWORD_LENGTH = 1024;

/** The throttle's account name for a buyer (and the device cookie's subject). */
export const buyerAccountName = (email: string) => `buyer:${email}`;

/**
 * Checks e-mail and password. Unknown e-mail, no login yet, disabled buyer,
 * wrong password and a throttled attempt all answer "invalid" alike (no
 * account enumeration); the audit log records which.
 */
export async function verifyBuyerSignIn(attempt: BuyerSignInAttempt): Promise<BuyerSignInResult> {
  const email = attempt.email.trim().toLowerCase().slice(0, 254);
  const ip = attempt.ip || "unknown";
  const account = buyerAccountName(email);
  const trusted = attempt.trustedDevice === true;
  const audit = (action: string, details: Record<string, string>, userId?: string) =>
    writeAuditLog(db(), {
      actor: { kind: "buyer", userId, ip },
      claimedEmail: email || "(empty)",
      action,
      targetType: "user",
      targetId: userId,
      details,
    });

  const gate = await reserveSignIn(account, ip, trusted);
  if (!gate.ok) {
    if (gate.first) await audit("buyer.sign_in_throttled", { refusedBy: gate.refusedBy });
    return { ok: false, reason: "invalid" };
  }
  const user = email
    ? await db().user.findUnique({ where: { email }, select: { id: true, email: true, status: true, passwordHash: true } })
    : null;
  const password = attempt.password.length > MAX_PASSWORD_LENGTH ? "" : attempt.password;
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || user.status !== "active" || !passwordOk || !password) {
    const reason = !user ? "unknown_email" : !user.passwordHash ? "no_login" : user.status !== "active" ? "disabled" : "wrong_password";
    await audit("buyer.sign_in_failed", { reason }, user?.id);
    return { ok: false, reason: "invalid" };
  }
  await resetAfterSignIn(account, ip, trusted);
  await db().user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  await audit("buyer.sign_in", {}, user.id);
  return { ok: true, userId: user.id, email: user.email };
}
