import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";
import { checkTotp, hashRecoveryCode } from "./totp";

export type SecondFactor = "totp" | "recovery_code" | null;

/**
 * Checks the code an admin with two-factor on typed: a TOTP code whose time
 * step has not been used before, or an unused recovery code. Either is
 * consumed in one guarded UPDATE, so of two requests carrying the same code
 * (a replay, or a race) exactly one succeeds.
 */
export async function useSecondFactor(adminId: number, totpSecretCiphertext: Uint8Array | null, code: string): Promise<SecondFactor> {
  const secret = totpSecretCiphertext ? decryptText(totpSecretCiphertext) : "";
  const step = secret ? checkTotp(secret, code) : null;
  if (step !== null) return (await claimTotpStep(adminId, step)) ? "totp" : null;
  return (await useRecoveryCode(adminId, code)) ? "recovery_code" : null;
}

/** Remembers `step` as the last accepted one; false when it (or a later one) was already accepted. */
export async function claimTotpStep(adminId: number, step: number): Promise<boolean> {
  const { count } = await db().adminUser.updateMany({
    where: { id: adminId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return count === 1;
}

/** Removes the code's hash from the list in the same guarded update, so it works once. */
async function useRecoveryCode(adminId: number, code: string): Promise<boolean> {
  if (!code || code.length > 64) return false;
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
