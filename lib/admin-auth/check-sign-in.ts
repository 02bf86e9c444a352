import crypto from "node:crypto";
import { verifyPassword } from "../crypto/password";
import { writeAuditLog } from "../audit/write-audit-log";
import { deriveKey } from "../crypto/derive-key";
import { db } from "../db/client";
import { useSecondFactor } from "./second-factor";
import { releaseSignIn, reserveLockedCheck, reserveSignIn, resetAfterSignIn } from "./sign-in-throttle";
import type { TotpAccount } from "./totp-account";

// THE sign-in rule, for both doors: the console (verify-sign-in.ts) and the
// buyer portal (lib/portal-auth/verify-buyer-sign-in.ts). Decision 0011: the
// attempt is first reserved against the guessing counters in PostgreSQL;
// only a reserved attempt runs scrypt. Every refusal (throttled, unknown
// e-mail, disabled, wrong password, wrong code) answers "invalid" alike; the
// audit log records which. Two-factor, when on, is checked by
// second-factor.ts. A door differs only in how it finds the account and what
// it does after a success or a lock-out.

export interface SignInAccount {
  ref: TotpAccount;
  email: string;
  active: boolean;
  passwordHash: string | null;
  totpEnabled: boolean;
  totpSecretCiphertext: Uint8Array | null;
}

export interface SignInDoor<A extends SignInAccount> {
  kind: TotpAccount["kind"];
  /** The account's name in the throttle's counters (and its device cookie's subject). */
  throttleName: (email: string) => string;
  find: (email: string) => Promise<A | null>;
  /** The first refusal of a window by the lock-out or the account-wide slow-down. */
  onLocked?: (email: string, ip: string) => Promise<void>;
  onSignedIn: (account: A, ip: string, trustedDevice: boolean) => Promise<void>;
  /** Issue 35.4: a locked account's right password is answered `locked` (the console; the portal keeps "invalid"). */
  tellsLocked?: boolean;
}

export interface CheckAttempt {
  email: string;
  password?: string;
  /** Instead of the password: the proof an earlier "totp_required" answer gave (the portal's code step). */
  passwordProof?: string;
  /** A 6-digit TOTP code or a recovery code, when the account has two-factor on. */
  code?: string;
  ip?: string | null;
  /** The browser presented a valid device cookie for this account (device-cookie.ts). */
  trustedDevice?: boolean;
}

export type CheckResult<A extends SignInAccount> =
  | { ok: true; account: A }
  // `locked`: the attempt was refused by a lock-out, and its password was right (doors with tellsLocked only).
  | { ok: false; reason: "invalid"; locked?: true }
  | { ok: false; reason: "totp_required"; passwordProof: string };

// A real hash to compare against when no account matches, so an unknown e-mail
// costs the same scrypt time as a wrong password (no account enumeration).
const DUMMY_HASH = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const MAX_PASSWORD_LENGTH = 1024;

/** Names the current password hash without revealing it: a new password (new salt) makes every earlier proof worthless. */
const proofOf = (passwordHash: string) =>
  crypto.createHmac("sha256", deriveKey("cardkey-supplier/sign-in-password-proof/v1")).update(passwordHash).digest("base64url");

function proofMatches(given: string, passwordHash: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(proofOf(passwordHash))];
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export async function checkSignIn<A extends SignInAccount>(door: SignInDoor<A>, attempt: CheckAttempt): Promise<CheckResult<A>> {
  const email = attempt.email.trim().toLowerCase().slice(0, 254);
  const ip = attempt.ip || "unknown";
  const trusted = attempt.trustedDevice === true;
  const audit = (event: string, details: Record<string, string>, account?: SignInAccount) =>
    // Sign-in events are not changes: each is its own row, named by the account it matched or the e-mail typed.
    writeAuditLog(db(), {
      actor:
        door.kind === "admin"
          ? { kind: "admin", id: account?.ref.id as number, ip }
          : { kind: "buyer", userId: account?.ref.id as string, ip },
      claimedEmail: email || "(empty)",
      action: `${door.kind}.${event}`,
      targetType: door.kind === "admin" ? "admin_user" : "user",
      targetId: account ? String(account.ref.id) : undefined,
      details,
    });

  const gate = await reserveSignIn(door.throttleName(email), ip, trusted);
  if (!gate.ok) {
    if (gate.first) await audit("sign_in_throttled", { refusedBy: gate.refusedBy });
    if (gate.first && gate.refusedBy !== "address") await door.onLocked?.(email, ip);
    if (door.tellsLocked && gate.refusedBy !== "address" && (await reserveLockedCheck(email, ip))) {
      // The same scrypt run for an unknown e-mail (DUMMY_HASH): the answer's time names no account.
      const locked = email ? await door.find(email) : null;
      const password = (attempt.password ?? "").length > MAX_PASSWORD_LENGTH ? "" : (attempt.password ?? "");
      const right = (await verifyPassword(password, locked?.passwordHash ?? DUMMY_HASH)) && !!password;
      if (right && locked?.active && locked.passwordHash) return { ok: false, reason: "invalid", locked: true };
    }
    return { ok: false, reason: "invalid" };
  }

  const account = email ? await door.find(email) : null;
  const hash = account?.passwordHash ?? null;
  let passwordOk: boolean;
  if (attempt.passwordProof !== undefined) {
    // Only the code step of an account with two-factor on may stand on a proof instead of the password.
    passwordOk = !!hash && account!.totpEnabled && proofMatches(attempt.passwordProof, hash);
  } else {
    // Over-long passwords are refused after the same scrypt run: no timing tell, no 1 MB scrypt input.
    const password = (attempt.password ?? "").length > MAX_PASSWORD_LENGTH ? "" : (attempt.password ?? "");
    passwordOk = (await verifyPassword(password, hash ?? DUMMY_HASH)) && !!password;
  }
  if (!account || !hash || !account.active || !passwordOk) {
    const reason = !account ? "unknown_email" : !hash ? "no_login" : !account.active ? "disabled" : "wrong_password";
    await audit("sign_in_failed", { reason }, account ?? undefined);
    return { ok: false, reason: "invalid" };
  }

  if (account.totpEnabled) {
    const code = attempt.code?.trim() ?? "";
    if (!code) {
      // The password was right: not a guess.
      await releaseSignIn(gate.keys);
      return { ok: false, reason: "totp_required", passwordProof: proofOf(hash) };
    }
    const used = await useSecondFactor(account.ref, account.totpSecretCiphertext, code);
    if (!used) {
      await audit("sign_in_failed", { reason: "wrong_code" }, account);
      return { ok: false, reason: "invalid" };
    }
    if (used === "recovery_code") await audit("recovery_code_used", {}, account);
  }

  await resetAfterSignIn(door.throttleName(email), ip, trusted);
  await audit("sign_in", {}, account);
  await door.onSignedIn(account, ip, trusted);
  return { ok: true, account };
}
