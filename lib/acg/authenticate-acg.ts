import crypto from "node:crypto";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import type { FormFields } from "./php-form";
import { refuse } from "./refusal";
import { signatureMatches } from "./sign";

// Their server's check (app/Interceptor/SharedValidation.php lines 29-42):
// `app_id` names the account, `sign` is the md5 rule of sign.ts keyed with
// its app_key. Here app_id is an API credential's id and app_key that
// credential's API secret, and only a credential an operator switched on for
// this protocol (acgEnabled, decision 0091), active, of an active buyer,
// answers. One message for every failure, so a client cannot tell an
// unknown id from a switched-off one or a wrong key.

export interface AcgCredential {
  id: number;
  userId: string;
  memberLevelId: number;
}

const APP_ID = /^[1-9][0-9]{0,9}$/;
const MAX_INT4 = 2_147_483_647;
export const AUTH_FAILED = "app_id or signature rejected (商户ID或签名错误)";

export async function authenticateAcg(fields: FormFields): Promise<AcgCredential> {
  const appId = fields.get("app_id");
  if (typeof appId !== "string" || !APP_ID.test(appId) || Number(appId) > MAX_INT4) throw refuse(AUTH_FAILED);
  const row = await db().apiCredential.findUnique({
    where: { id: Number(appId) },
    select: {
      id: true,
      userId: true,
      isActive: true,
      acgEnabled: true,
      secretCiphertext: true,
      previousSecretCiphertext: true,
      previousSecretUntil: true,
      user: { select: { status: true, memberLevelId: true } },
    },
  });
  if (!row || !row.acgEnabled || !row.isActive || row.user.status !== "active") throw refuse(AUTH_FAILED);
  // Decision 0039: during a rotation's overlap the previous secret still signs.
  const secrets = [decryptText(row.secretCiphertext)];
  if (row.previousSecretCiphertext && row.previousSecretUntil && row.previousSecretUntil.getTime() > Date.now()) {
    secrets.push(decryptText(row.previousSecretCiphertext));
  }
  if (!secrets.some((secret) => keyFieldAgrees(fields, secret) && signatureMatches(fields, secret))) throw refuse(AUTH_FAILED);
  return { id: row.id, userId: row.userId, memberLevelId: row.user.memberLevelId };
}

/** Their client sends app_key in the body too (Bind/Shared.php line 77); when present it must be the secret. */
function keyFieldAgrees(fields: FormFields, secret: string): boolean {
  const sent = fields.get("app_key");
  if (sent === undefined) return true;
  if (typeof sent !== "string") return false;
  const a = crypto.createHash("sha256").update(sent).digest();
  const b = crypto.createHash("sha256").update(secret).digest();
  return crypto.timingSafeEqual(a, b);
}
