import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";
import { checkTotp, hashRecoveryCode } from "./totp";
import { readTotpState, updateTotpState, type TotpAccount } from "./totp-account";

export type SecondFactor = "totp" | "recovery_code" | null;

/**
 * Checks the code an account with two-factor on typed (an administrator, or a
 * portal buyer): a TOTP code whose time step has not been used before, or an
 * unused recovery code. Either is consumed in one guarded UPDATE, so of two
 * requests carrying the same code (a replay, or a race) exactly one succeeds.
 */
export async function useSecondFactor(account: TotpAccount, totpSecretCiphertext: Uint8Array | null, code: string): Promise<SecondFactor> {
  const secret = totpSecretCiphertext ? decryptText(totpSecretCiphertext) : "";
  const step = secret ? checkTotp(secret, code) : null;
  if (step !== null) return (await claimTotpStep(account, step)) ? "totp" : null;
  return (await useRecoveryCode(account, code)) ? "recovery_code" : null;
}

/** Remembers `step` as the last accepted one; false when it (or a later one) was already accepted. */
export async function claimTotpStep(account: TotpAccount, step: number): Promise<boolean> {
  return updateTotpState(db(), account, { OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] }, { totpLastStep: step });
}

/** Removes the code's hash from the list in the same guarded update, so it works once. */
async function useRecoveryCode(account: TotpAccount, code: string): Promise<boolean> {
  if (!code || code.length > 64) return false;
  const hash = hashRecoveryCode(code);
  return db().$transaction(async (tx) => {
    const { recoveryCodeHashes } = await readTotpState(tx, account);
    if (!recoveryCodeHashes.includes(hash)) return false;
    return updateTotpState(
      tx,
      account,
      { recoveryCodeHashes: { has: hash } },
      { recoveryCodeHashes: recoveryCodeHashes.filter((h) => h !== hash) },
    );
  });
}
