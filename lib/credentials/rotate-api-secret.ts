import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { parseInput } from "../input/parse-input";
import { encryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { appError } from "../errors";
import { newApiSecret } from "./create-api-key";

/** Issue 24.2: how long the previous secret keeps working after a rotation, in hours (0-72). */
export const OverlapHoursSchema = z.coerce
  .number()
  .int("must be a whole number of hours")
  .min(0, "must be 0 to 72")
  .max(72, "must be 0 to 72");

/**
 * Decision 0039: gives an active key a new secret and keeps the key itself
 * (its orders, idempotency scope and webhook stay). The previous secret keeps
 * signing for `overlapHours` (0 = stops at once), so a shop can roll the new
 * secret out without a gap. A rotation during an overlap drops the older
 * secret: at most two work at once. The new secret is returned once and
 * never logged or audited. `userId` scopes the key to its owner (portal).
 */
export async function rotateApiSecret({
  apiKey,
  userId,
  overlapHours,
  actor,
}: {
  apiKey: string;
  userId?: string;
  overlapHours: number;
  actor: Actor;
}) {
  const hours = parseInput(OverlapHoursSchema, overlapHours);
  return db().$transaction(async (tx) => {
    const key = await tx.apiCredential.findFirst({
      where: { apiKey, ...(userId ? { userId } : {}) },
      select: { id: true, apiKey: true, isActive: true, secretCiphertext: true },
    });
    if (!key) throw appError("not_found", "no such API key");
    if (!key.isActive) throw appError("key_disabled", "this API key is disabled; create a new one instead");
    const apiSecret = newApiSecret();
    const until = new Date(Date.now() + hours * 3600_000);
    await tx.apiCredential.update({
      where: { id: key.id },
      data:
        hours > 0
          ? { secretCiphertext: encryptText(apiSecret), previousSecretCiphertext: key.secretCiphertext, previousSecretUntil: until }
          : { secretCiphertext: encryptText(apiSecret), previousSecretCiphertext: null, previousSecretUntil: null },
    });
    await writeAuditLog(tx, {
      actor,
      action: "api_key.rotate_secret",
      targetType: "api_credential",
      targetId: String(key.id),
      details: { apiKey: key.apiKey, overlapHours: hours, previousUntil: hours > 0 ? until.toISOString() : null },
    });
    return { id: key.id, apiKey: key.apiKey, apiSecret, previousSecretUntil: hours > 0 ? until : null };
  });
}
