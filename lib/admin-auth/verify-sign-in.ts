import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";
import { verifyPassword } from "../admins/password";
import { auditAdmin } from "./audit-admin";
import { checkTotp, hashRecoveryCode } from "./totp";

export const MAX_FAILED_SIGN_INS = 5;
export const LOCK_MINUTES = 15;

export interface SignInAttempt {
  email: string;
  password: string;
  /** A 6-digit TOTP code or a recovery code, when the admin has two-factor on. */
  code?: string;
  ip?: string | null;
}

export type SignInResult =
  | { ok: true; admin: { id: number; email: string } }
  | { ok: false; reason: "invalid" | "locked" | "totp_required" };

// A real hash to compare against when no admin matches, so an unknown e-mail
// costs the same scrypt time as a wrong password (no account enumeration).
const DUMMY_HASH = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * Checks an administrator's sign-in: password (scrypt), lock-out after
 * MAX_FAILED_SIGN_INS failures in a row for LOCK_MINUTES, and the TOTP or a
 * one-time recovery code when two-factor is on. Every outcome writes an audit
 * row (success, failure, lock-out, refused while locked) with the IP.
 */
export async function verifySignIn(attempt: SignInAttempt): Promise<SignInResult> {
  const email = attempt.email.trim().toLowerCase().slice(0, 254);
  const ip = attempt.ip ?? null;
  const admin = email ? await db().adminUser.findUnique({ where: { email } }) : null;

  if (!admin || !admin.isActive) {
    await verifyPassword(attempt.password, DUMMY_HASH);
    await auditAdmin({ actor: email || "(empty)", action: "admin.sign_in_failed", targetType: "admin_user", details: { reason: admin ? "disabled" : "unknown_email" }, ip });
    return { ok: false, reason: "invalid" };
  }
  const who = { adminUserId: admin.id, actor: admin.email, targetType: "admin_user", targetId: String(admin.id), ip };

  if (admin.lockedUntil && admin.lockedUntil > new Date()) {
    await auditAdmin({ ...who, action: "admin.sign_in_refused_locked", details: { lockedUntil: admin.lockedUntil.toISOString() } });
    return { ok: false, reason: "locked" };
  }

  if (!(await verifyPassword(attempt.password, admin.passwordHash))) return recordFailure(admin.id, who, "wrong_password");

  if (admin.totpEnabled) {
    const code = attempt.code?.trim() ?? "";
    if (!code) return { ok: false, reason: "totp_required" };
    const secret = admin.totpSecretCiphertext ? decryptText(admin.totpSecretCiphertext) : "";
    if (!(secret && checkTotp(secret, code))) {
      const used = await useRecoveryCode(admin.id, code);
      if (!used) return recordFailure(admin.id, who, "wrong_code");
      await auditAdmin({ ...who, action: "admin.recovery_code_used" });
    }
  }

  await db().adminUser.update({ where: { id: admin.id }, data: { failedLoginCount: 0, lockedUntil: null, lastLoginAt: new Date() } });
  await auditAdmin({ ...who, action: "admin.sign_in" });
  return { ok: true, admin: { id: admin.id, email: admin.email } };
}

type Who = { adminUserId: number; actor: string; targetType: string; targetId: string; ip: string | null };

async function recordFailure(adminId: number, who: Who, reason: string): Promise<SignInResult> {
  // Increment in the database so concurrent guesses all count.
  const { failedLoginCount } = await db().adminUser.update({ where: { id: adminId }, data: { failedLoginCount: { increment: 1 } }, select: { failedLoginCount: true } });
  await auditAdmin({ ...who, action: "admin.sign_in_failed", details: { reason, failures: failedLoginCount } });
  if (failedLoginCount < MAX_FAILED_SIGN_INS) return { ok: false, reason: "invalid" };
  const lockedUntil = new Date(Date.now() + LOCK_MINUTES * 60_000);
  await db().adminUser.update({ where: { id: adminId }, data: { failedLoginCount: 0, lockedUntil } });
  await auditAdmin({ ...who, action: "admin.locked_out", details: { failures: failedLoginCount, lockedUntil: lockedUntil.toISOString() } });
  return { ok: false, reason: "locked" };
}

/** Consumes a recovery code: removed from the list in the same guarded update, so it works once. */
async function useRecoveryCode(adminId: number, code: string): Promise<boolean> {
  const hash = hashRecoveryCode(code);
  return db().$transaction(async (tx) => {
    const row = await tx.adminUser.findUniqueOrThrow({ where: { id: adminId }, select: { recoveryCodeHashes: true } });
    if (!row.recoveryCodeHashes.includes(hash)) return false;
    const { count } = await tx.adminUser.updateMany({
      where: { id: adminId, recoveryCodeHashes: { has: hash } },
      data: { recoveryCodeHashes: row.recoveryCodeHashes.filter((h) => h !== hash) },
    });
    return count === 1;
  });
}
