import crypto from "node:crypto";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { encryptText } from "../crypto/secret-box";

/**
 * Makes an API key for a user. The secret is returned once, here, and stored
 * only encrypted (D9: the server must compute the HMAC, so it cannot be hashed).
 */
export async function createApiKey(userId: string, name = "", tx: Tx = db()) {
  const apiKey = "sk_" + crypto.randomBytes(12).toString("hex");
  const apiSecret = newApiSecret();
  const credential = await tx.apiCredential.create({
    data: { apiKey, secretCiphertext: encryptText(apiSecret), userId, name },
  });
  return { id: credential.id, apiKey, apiSecret };
}

/**
 * 24 random bytes, base64url. Never starting with "-": pasted after a flag
 * (`--api-secret -x…`) a command-line parser reads it as another flag and
 * refuses it, as Node's parseArgs and the conformance kit do. One draw in 64
 * is drawn again; the secret keeps its 192 random bits otherwise unchanged.
 */
export function newApiSecret(): string {
  for (;;) {
    const secret = crypto.randomBytes(24).toString("base64url");
    if (!secret.startsWith("-")) return secret;
  }
}
