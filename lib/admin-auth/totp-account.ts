import type { Prisma } from "../generated/prisma/client";
import type { Actor } from "../audit/actor";
import type { Tx } from "../db/tx";

// The accounts that may have two-factor: an administrator (AdminUser) and a
// portal buyer (User, issue 24.1). Both tables carry the same four columns;
// this file is the ONLY place that tells them apart, so the rules (setup,
// one use per code, recovery codes) are written once, in manage-totp.ts and
// second-factor.ts, for both.

export type TotpAccount = { kind: "admin"; id: number } | { kind: "buyer"; id: string };

/** Who is changing their own two-factor: the account, its e-mail (the authenticator's label) and the audit actor. */
export interface TotpOwner {
  account: TotpAccount;
  email: string;
  actor: Actor;
  /** A buyer's portal session making the change: the one session turning two-factor on keeps (issue 33.6). */
  sessionId?: string;
}

/** The account's name in the sign-in throttle's counters: an administrator's e-mail, "buyer:<e-mail>" for a buyer (both doors use it). */
export const signInName = (kind: TotpAccount["kind"], email: string) => (kind === "admin" ? email : `buyer:${email}`);

export interface TotpState {
  passwordHash: string | null;
  totpEnabled: boolean;
  totpSecretCiphertext: Uint8Array<ArrayBuffer> | null;
  recoveryCodeHashes: string[];
  totpLastStep: number | null;
}

/** A condition both tables understand (only the shared columns). */
export type TotpGuard = Prisma.AdminUserWhereInput & Prisma.UserWhereInput;
export type TotpChange = Partial<Omit<TotpState, "passwordHash">>;

const SELECT = { passwordHash: true, totpEnabled: true, totpSecretCiphertext: true, recoveryCodeHashes: true, totpLastStep: true } as const;

export async function readTotpState(tx: Tx, account: TotpAccount): Promise<TotpState> {
  return account.kind === "admin"
    ? tx.adminUser.findUniqueOrThrow({ where: { id: account.id }, select: SELECT })
    : tx.user.findUniqueOrThrow({ where: { id: account.id }, select: SELECT });
}

/** Changes the account's two-factor columns when `guard` still holds; true when it did (the guarded UPDATE decides races). */
export async function updateTotpState(tx: Tx, account: TotpAccount, guard: TotpGuard, data: TotpChange): Promise<boolean> {
  const { count } =
    account.kind === "admin"
      ? await tx.adminUser.updateMany({ where: { ...guard, id: account.id }, data })
      : await tx.user.updateMany({ where: { ...guard, id: account.id }, data });
  return count === 1;
}

/**
 * Issue 33.6: two-factor went on, so whoever signed in before it did is
 * signed out: a buyer's every session but the one that turned it on; an
 * administrator's every session (one version number covers them all, so the
 * console's own session ends too and the next page asks for the code).
 */
export async function endOtherSessions(tx: Tx, owner: TotpOwner): Promise<void> {
  if (owner.account.kind === "admin")
    await tx.adminUser.update({ where: { id: owner.account.id }, data: { sessionVersion: { increment: 1 } } });
  else
    await tx.buyerSession.updateMany({
      where: { userId: owner.account.id, revokedAt: null, ...(owner.sessionId ? { id: { not: owner.sessionId } } : {}) },
      data: { revokedAt: new Date() },
    });
}

/** The audit row's target and action names: "admin.totp_enabled" on an admin_user, "buyer.totp_enabled" on a user. */
export function totpAudit(account: TotpAccount, event: string) {
  return account.kind === "admin"
    ? { action: `admin.${event}`, targetType: "admin_user", targetId: String(account.id) }
    : { action: `buyer.${event}`, targetType: "user", targetId: account.id };
}
