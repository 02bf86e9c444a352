import { db } from "../db/client";
import { appError } from "../errors";
import { auditAdmin } from "../admin-auth/audit-admin";
import type { AdminSession } from "../admin-auth/require-admin";
import { addCardKeys } from "./add-card-keys";
import { classifyCardKeys, type CardKeyPreview } from "./preview-card-keys";

/**
 * Adds the new, well-formed keys of a previewed paste/upload as ONE
 * CardKeyBatch (so it can be undone), skipping duplicates and malformed lines
 * as the preview said. The text is classified again inside the transaction;
 * if the number of new keys differs from what the administrator saw
 * (`expectFresh`), nothing is written and they are asked to preview again.
 * The audit row holds counts only, never keys.
 */
export async function confirmCardKeys(input: { skuId: number; text: string; kind: "txt" | "csv"; source: "admin-paste" | "admin-upload"; expectFresh: number }, admin: AdminSession): Promise<{ batchId: number; preview: CardKeyPreview }> {
  return db().$transaction(async (tx) => {
    const { preview, keys } = await classifyCardKeys(input.skuId, input.text, input.kind, tx);
    if (preview.fresh !== input.expectFresh) throw appError("conflict", `the keys changed since the preview (${preview.fresh} new now, ${input.expectFresh} previewed); preview again`);
    if (preview.fresh === 0) throw appError("bad_request", "there are no new keys to add");
    const batch = await tx.cardKeyBatch.create({ data: { skuId: input.skuId, source: input.source, keyCount: keys.length, adminUserId: admin.id } });
    const added = await addCardKeys(tx, input.skuId, keys, batch.id);
    if (added !== keys.length) throw appError("conflict", "another import added some of these keys at the same time; preview again");
    const { problems: _omit, ...counts } = preview;
    await auditAdmin({ adminUserId: admin.id, actor: admin.email, action: "card_keys.import", targetType: "sku", targetId: String(input.skuId), details: { batchId: batch.id, source: input.source, ...counts }, ip: admin.ip }, tx);
    return { batchId: batch.id, preview };
  }, { maxWait: 10_000, timeout: 120_000 });
}
