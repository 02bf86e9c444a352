import { db } from "../db/client";
import { checkSignIn, type CheckAttempt, type SignInAccount, type SignInDoor } from "../admin-auth/check-sign-in";
import { signInName } from "../admin-auth/totp-account";

// A buyer's portal sign-in, under the administrators' rule and guessing
// policy (decision 0011, lib/admin-auth/check-sign-in.ts): per address, per
// (account, address) lock-out, per account without a device cookie; each
// attempt reserved in PostgreSQL before scrypt runs; the code of an account
// with two-factor on. Buyer accounts are counted under "buyer:<e-mail>",
// apart from an administrator with the same e-mail; the per-address counter
// is shared, since it bounds one address's scrypt work whichever door it knocks on.

export type BuyerSignInAttempt = CheckAttempt;

export type BuyerSignInResult =
  | { ok: true; userId: string; email: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "totp_required"; passwordProof: string };

/** The throttle's account name for a buyer (and the device cookie's subject). */
export const buyerAccountName = (email: string) => signInName("buyer", email);

type BuyerAccount = SignInAccount & { id: string };

const BUYER_DOOR: SignInDoor<BuyerAccount> = {
  kind: "buyer",
  throttleName: buyerAccountName,
  async find(email) {
    const user = await db().user.findUnique({
      where: { email },
      select: { id: true, email: true, status: true, passwordHash: true, totpEnabled: true, totpSecretCiphertext: true },
    });
    return user && { ...user, ref: { kind: "buyer", id: user.id }, active: user.status === "active" };
  },
  async onSignedIn(user) {
    await db().user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  },
};

/**
 * Checks e-mail and password (or, at the code step, the proof the password
 * step gave) and the code when two-factor is on. Unknown e-mail, no login
 * yet, disabled buyer, wrong password or code and a throttled attempt all
 * answer "invalid" alike (no account enumeration); the audit log records which.
 */
export async function verifyBuyerSignIn(attempt: BuyerSignInAttempt): Promise<BuyerSignInResult> {
  const result = await checkSignIn(BUYER_DOOR, attempt);
  return result.ok ? { ok: true, userId: result.account.id, email: result.account.email } : result;
}
