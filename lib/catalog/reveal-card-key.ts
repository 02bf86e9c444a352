import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/**
 * One card key in clear, for an administrator who asked to see it. The audit
 * row (who, which key id, IP; never the key) is written in the same
 * transaction before the key is returned. This is the ONLY place the console
 * decrypts a key.
 */
export async function revealCardKey(keyId: bigint, { actor }: { actor: Actor }): Promise<string> {
  return db().$transaction(async (tx) => {
    const key = await tx.cardKey.findUnique({ where: { id: keyId }, select: { id: true, skuId: true, status: true, ciphertext: true } });
    if (!key) throw appError("not_found", "card key not found");
    await writeAuditLog(tx, {
      actor,
      action: "card_key.reveal",
      targetType: "card_key",
      targetId: String(key.id),
      details: { skuId: key.skuId, status: key.status },
    });
    return decryptText(key.ciphertext);
  });
}
