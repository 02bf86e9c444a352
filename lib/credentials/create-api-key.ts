import crypto from "node:crypto";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { encryptText } from "../crypto/secret-box";
import { assertApprovedBuyer } from "../buyer-access/approved-buyer";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/**
 * Makes an API key for a user, audited in the same transaction (the key, never
 * the secret). The secret is returned once, here, and stored only encrypted
 * (D9: the server must compute the HMAC, so it cannot be hashed).
 */
export async function createApiKey({ userId, name = "", actor }: { userId: string; name?: string; actor: Actor }) {
  return db().$transaction(async (tx) => {
    // Issue 24.1: an account that signed up under buyer_registration = approval waits for an administrator.
    await assertApprovedBuyer(userId, tx);
    const key = await insertApiKey(tx, userId, name);
    await writeAuditLog(tx, {
      actor,
      action: "api_key.create",
      targetType: "api_credential",
      targetId: String(key.id),
      details: { apiKey: key.apiKey, userId, name },
    });
    return key;
  });
}

/** The key's row, in the caller's transaction (rotateApiKey audits its own change). */
export async function insertApiKey(tx: Tx, userId: string, name: string) {
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
