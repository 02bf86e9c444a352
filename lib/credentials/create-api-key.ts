import crypto from "node:crypto";
import { db } from "../db/client";
import { encryptText } from "../crypto/secret-box";

/**
 * Makes an API key for a user. The secret is returned once, here, and stored
 * only encrypted (D9: the server must compute the HMAC, so it cannot be hashed).
 */
export async function createApiKey(userId: string, name = "") {
  const apiKey = "sk_" + crypto.randomBytes(12).toString("hex");
  const apiSecret = crypto.randomBytes(24).toString("base64url");
  const credential = await db().apiCredential.create({
    data: { apiKey, secretCiphertext: encryptText(apiSecret), userId, name },
  });
  return { id: credential.id, apiKey, apiSecret };
}
