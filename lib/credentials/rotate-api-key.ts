import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { insertApiKey } from "./create-api-key";

/**
 * Rotates an active API key (admin UI): a new key and secret for the same
 * buyer and name, and the old key disabled, in ONE transaction with the audit
 * row, so there is never a moment with both or neither. The new secret is
 * returned once, for the caller to show; it is never logged or audited.
 */
export async function rotateApiKey(input: { apiKey: string; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const [old] = await tx.$queryRaw<{ id: number; userId: string; name: string; isActive: boolean }[]>`
      SELECT "id", "userId"::text AS "userId", "name", "isActive" FROM "ApiCredential" WHERE "apiKey" = ${input.apiKey.trim()} FOR UPDATE`;
    if (!old) throw appError("not_found", "no such API key");
    if (!old.isActive) throw appError("key_disabled", "this API key is already disabled; create a new one instead");
    const fresh = await insertApiKey(tx, old.userId, old.name);
    await tx.apiCredential.update({ where: { id: old.id }, data: { isActive: false, disabledAt: new Date() } });
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "api_key.rotate",
      targetType: "api_credential",
      targetId: String(old.id),
      details: { oldApiKey: input.apiKey.trim(), newApiKey: fresh.apiKey, newId: fresh.id, userId: old.userId },
    });
    return { userId: old.userId, oldId: old.id, ...fresh };
  });
}
