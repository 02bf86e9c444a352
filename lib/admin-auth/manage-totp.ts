import { db } from "../db/client";
import { decryptText, encryptText } from "../crypto/secret-box";
import { appError } from "../errors";
import { adminActor, buyerActor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import type { AdminSession } from "./admin-session";
import { confirmOwnPassword } from "./confirm-own-password";
import { checkTotp, hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpUri } from "./totp";
import { endOtherSessions, readTotpState, totpAudit, updateTotpState, type TotpOwner } from "./totp-account";
import { mailTwoFactorOn } from "./two-factor-mail";

// Two-factor for one account, an administrator's (console "Security") or a
// portal buyer's (issue 24.1, "Account"): begin (a new secret, stored
// encrypted, not yet required), enable (proved by a code from the app;
// recovery codes are made and shown once), disable. Each of the three asks
// for the current password (issue 33.6, confirm-own-password.ts); enabling
// also ends the account's other sessions and mails the owner. Each step
// audited in its own transaction.

/** The owner of a console session. */
export const adminTotpOwner = (admin: AdminSession): TotpOwner => ({
  account: { kind: "admin", id: admin.id },
  email: admin.email,
  actor: adminActor(admin),
});

/** The owner of a portal session (issue 24.1). */
export const buyerTotpOwner = (buyer: { userId: string; email: string; ip: string | null; sessionId?: string }): TotpOwner => ({
  account: { kind: "buyer", id: buyer.userId },
  email: buyer.email,
  actor: buyerActor(buyer),
  sessionId: buyer.sessionId,
});

export async function beginTotpSetup(owner: TotpOwner, password: string): Promise<{ secret: string; uri: string }> {
  await confirmOwnPassword(owner, password);
  const secret = newTotpSecret();
  await db().$transaction(async (tx) => {
    // Guarded: a setup begun in another tab while two-factor went on cannot replace the live secret.
    const begun = await updateTotpState(tx, owner.account, { totpEnabled: false }, { totpSecretCiphertext: encryptText(secret) });
    if (!begun) throw appError("conflict", "two-factor is already on");
    await writeAuditLog(tx, { actor: owner.actor, ...totpAudit(owner.account, "totp_setup_started") });
  });
  return { secret, uri: totpUri(secret, owner.email) };
}

export async function enableTotp(owner: TotpOwner, { code, password }: { code: string; password: string }): Promise<string[]> {
  await confirmOwnPassword(owner, password);
  const row = await readTotpState(db(), owner.account);
  if (row.totpEnabled) throw appError("conflict", "two-factor is already on");
  if (!row.totpSecretCiphertext) throw appError("bad_request", "start the setup first");
  const step = checkTotp(decryptText(row.totpSecretCiphertext), code);
  if (step === null) throw appError("bad_request", "the code does not match; check the time on your phone and try again");
  const codes = newRecoveryCodes();
  // The step that proved the setup counts as used: the same code cannot then sign in.
  await db().$transaction(async (tx) => {
    const enabled = await updateTotpState(
      tx,
      owner.account,
      { totpEnabled: false, totpSecretCiphertext: { equals: row.totpSecretCiphertext } },
      { totpEnabled: true, totpLastStep: step, recoveryCodeHashes: codes.map(hashRecoveryCode) },
    );
    // Two "turn on" at once, or a new setup begun meanwhile: only the first, with the secret it proved, counts.
    if (!enabled) throw appError("conflict", "two-factor changed meanwhile; reload and try again");
    await endOtherSessions(tx, owner); // issue 33.6: whoever signed in before the change is out
    await writeAuditLog(tx, { actor: owner.actor, ...totpAudit(owner.account, "totp_enabled"), details: { recoveryCodes: codes.length } });
  });
  await mailTwoFactorOn({ to: owner.email, kind: owner.account.kind, ip: owner.actor.ip });
  return codes;
}

export async function disableTotp(owner: TotpOwner, password: string): Promise<void> {
  await confirmOwnPassword(owner, password);
  await turnOff(owner, "totp_disabled");
}

/**
 * An operator turns two-factor off for an account whose owner lost both the
 * phone and the recovery codes (CLI `user:two-factor-off`); the owner can set
 * it up again after signing in. False when it was off already (nothing audited).
 */
export async function resetTotp(owner: TotpOwner): Promise<boolean> {
  const { totpEnabled, totpSecretCiphertext } = await readTotpState(db(), owner.account);
  if (!totpEnabled && !totpSecretCiphertext) return false;
  return turnOff(owner, "totp_reset");
}

async function turnOff(owner: TotpOwner, event: string): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const off = { totpEnabled: false, totpSecretCiphertext: null, totpLastStep: null, recoveryCodeHashes: [] };
    const changed = await updateTotpState(tx, owner.account, { OR: [{ totpEnabled: true }, { totpSecretCiphertext: { not: null } }] }, off);
    if (changed) await writeAuditLog(tx, { actor: owner.actor, ...totpAudit(owner.account, event) });
    return changed;
  });
}
