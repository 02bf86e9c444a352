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
  const apiSecret = crypto.randomBytes(24).toString("base64url");
  const credential = await tx.apiCredential.create({
    data: { apiKey, secretCiphertext: encryptText(apiSecret), userId, name },
  });
  return { id: credential.id, apiKey, apiSecret };
}
