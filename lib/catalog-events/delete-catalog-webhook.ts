import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";

/**
 * Issue 12.2: removes the key's catalogue webhook (the downstream over the
 * API, or an administrator on the API keys page, audited). Its events still
 * waiting for delivery are given up in the same transaction ("webhook
 * removed"): a downstream that unregistered expects no more POSTs. A later
 * PUT starts again at the clock. Removing none is not an error.
 */
export async function deleteCatalogWebhook(input: { credentialId: number; actor: Actor }): Promise<{ url: null; removed: boolean }> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.catalogWebhook.deleteMany({ where: { credentialId: input.credentialId } });
    await tx.catalogEvent.updateMany({
      where: { credentialId: input.credentialId, status: "pending" },
      data: { status: "failed", nextAttemptAt: null, lastError: "webhook removed" },
    });
    if (count) {
      await writeAuditLog(tx, {
        actor: input.actor,
        action: "catalog_webhook.delete",
        targetType: "api_credential",
        targetId: String(input.credentialId),
      });
    }
    return { url: null, removed: count > 0 };
  });
}
