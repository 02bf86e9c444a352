import { db } from "../db/client";
import { decryptText, encryptText } from "../crypto/secret-box";
import { appError } from "../errors";
import { verifyPassword } from "../admins/password";
import { adminActor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import type { AdminSession } from "./admin-session";
import { checkTotp, hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpUri } from "./totp";

// Two-factor for one administrator: begin (a new secret, stored encrypted,
// not yet required), enable (proved by a code from the app; recovery codes
// are made and shown once), disable (needs the password). Each step audited.

export async function beginTotpSetup(admin: AdminSession): Promise<{ secret: string; uri: string }> {
  const row = await db().adminUser.findUniqueOrThrow({ where: { id: admin.id }, select: { totpEnabled: true } });
  if (row.totpEnabled) throw appError("conflict", "two-factor is already on");
  const secret = newTotpSecret();
  await db().$transaction(async (tx) => {
    await tx.adminUser.update({ where: { id: admin.id }, data: { totpSecretCiphertext: encryptText(secret) } });
    await writeAuditLog(tx, {
      actor: adminActor(admin),
      action: "admin.totp_setup_started",
      targetType: "admin_user",
      targetId: String(admin.id),
    });
  });
  return { secret, uri: totpUri(secret, admin.email) };
}

export async function enableTotp(admin: AdminSession, code: string): Promise<string[]> {
  const row = await db().adminUser.findUniqueOrThrow({
    where: { id: admin.id },
    select: { totpEnabled: true, totpSecretCiphertext: true },
  });
  if (row.totpEnabled) throw appError("conflict", "two-factor is already on");
  if (!row.totpSecretCiphertext) throw appError("bad_request", "start the setup first");
  const step = checkTotp(decryptText(row.totpSecretCiphertext), code);
  if (step === null) throw appError("bad_request", "the code does not match; check the time on your phone and try again");
  const codes = newRecoveryCodes();
  // The step that proved the setup counts as used: the same code cannot then sign in.
  await db().$transaction(async (tx) => {
    await tx.adminUser.update({
      where: { id: admin.id },
      data: { totpEnabled: true, totpLastStep: step, recoveryCodeHashes: codes.map(hashRecoveryCode) },
    });
    await writeAuditLog(tx, {
      actor: adminActor(admin),
      action: "admin.totp_enabled",
      targetType: "admin_user",
      targetId: String(admin.id),
      details: { recoveryCodes: codes.length },
    });
  });
  return codes;
}

export async function disableTotp(admin: AdminSession, password: string): Promise<void> {
  const row = await db().adminUser.findUniqueOrThrow({ where: { id: admin.id }, select: { passwordHash: true } });
  if (!(await verifyPassword(password, row.passwordHash))) throw appError("bad_request", "wrong password");
  await db().$transaction(async (tx) => {
    await tx.adminUser.update({
      where: { id: admin.id },
      data: { totpEnabled: false, totpSecretCiphertext: null, totpLastStep: null, recoveryCodeHashes: [] },
    });
    await writeAuditLog(tx, {
      actor: adminActor(admin),
      action: "admin.totp_disabled",
      targetType: "admin_user",
      targetId: String(admin.id),
    });
  });
}
