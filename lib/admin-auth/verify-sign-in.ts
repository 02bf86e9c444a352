import { alertAdminLocked, alertAdminNewDevice } from "../alerts/admin-alerts";
import { db } from "../db/client";
import { verifyPassword } from "../admins/password";
import { writeAuditLog } from "../audit/write-audit-log";
import { useSecondFactor } from "./second-factor";
import { releaseSignIn, reserveSignIn, resetAfterSignIn } from "./sign-in-throttle";

export interface SignInAttempt {
  email: string;
  password: string;
  /** A 6-digit TOTP code or a recovery code, when the admin has two-factor on. */
  code?: string;
  ip?: string | null;
  /** The browser presented a valid device cookie for this e-mail (device-cookie.ts). */
  trustedDevice?: boolean;
}

export type SignInResult =
  { ok: true; admin: { id: number; email: string; sessionVersion: number } } | { ok: false; reason: "invalid" | "totp_required" };

// A real hash to compare against when no admin matches, so an unknown e-mail
// costs the same scrypt time as a wrong password (no account enumeration).
const DUMMY_HASH = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const MAX_PASSWORD_LENGTH = 1024;

/**
 * Checks an administrator's sign-in. The attempt is first reserved against the
 * guessing counters (sign-in-throttle.ts) in PostgreSQL; only a reserved
 * attempt runs scrypt. A refused attempt answers exactly like a wrong password
 * ("invalid"): there is no "locked" answer to tell which e-mails are admins.
 * The one difference that cannot be avoided is time: a refusal skips scrypt.
 * Every evaluated outcome, and the first refusal of each window, is audited.
 */
export async function verifySignIn(attempt: SignInAttempt): Promise<SignInResult> {
  const email = attempt.email.trim().toLowerCase().slice(0, 254);
  const ip = attempt.ip || "unknown";
  const audit = (action: string, details: Record<string, string>, adminUserId?: number) =>
    // Sign-in events are not changes: each is its own row, named by the admin it matched or the e-mail typed.
    writeAuditLog(db(), {
      actor: { kind: "admin", id: adminUserId, ip },
      claimedEmail: email || "(empty)",
      action,
      targetType: "admin_user",
      targetId: adminUserId ? String(adminUserId) : undefined,
      details,
    });

  const gate = await reserveSignIn(email, ip, attempt.trustedDevice === true);
  if (!gate.ok) {
    if (gate.first) await audit("admin.sign_in_throttled", { refusedBy: gate.refusedBy });
    if (gate.first && gate.refusedBy !== "address") await alertAdminLocked({ email, ip }); // issue 25
    return { ok: false, reason: "invalid" };
  }

  const admin = email ? await db().adminUser.findUnique({ where: { email } }) : null;
  // Over-long passwords are refused after the same scrypt run: no timing tell, no 1 MB scrypt input.
  const password = attempt.password.length > MAX_PASSWORD_LENGTH ? "" : attempt.password;
  const passwordOk = await verifyPassword(password, admin?.passwordHash ?? DUMMY_HASH);
  if (!admin || !admin.isActive || !passwordOk || !password) {
    const reason = !admin ? "unknown_email" : !admin.isActive ? "disabled" : "wrong_password";
    await audit("admin.sign_in_failed", { reason }, admin?.id);
    return { ok: false, reason: "invalid" };
  }

  if (admin.totpEnabled) {
    const code = attempt.code?.trim() ?? "";
    if (!code) {
      await releaseSignIn(gate.keys);
      return { ok: false, reason: "totp_required" };
    }
    const used = await useSecondFactor(admin.id, admin.totpSecretCiphertext, code);
    if (!used) {
      await audit("admin.sign_in_failed", { reason: "wrong_code" }, admin.id);
      return { ok: false, reason: "invalid" };
    }
    if (used === "recovery_code") await audit("admin.recovery_code_used", {}, admin.id);
  }

  await resetAfterSignIn(email, ip, attempt.trustedDevice === true);
  await db().adminUser.update({ where: { id: admin.id }, data: { lastLoginAt: new Date() } });
  await audit("admin.sign_in", {}, admin.id);
  if (!attempt.trustedDevice) await alertAdminNewDevice({ adminId: admin.id, email: admin.email, ip }); // issue 25
  return { ok: true, admin: { id: admin.id, email: admin.email, sessionVersion: admin.sessionVersion } };
}
