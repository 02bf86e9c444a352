import { appError } from "../errors";
import { auditAdmin } from "../admin-auth/audit-admin";
import type { AdminSession } from "../admin-auth/require-admin";
import { withCardKeyStage } from "./card-key-transaction";
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
  return withCardKeyStage(async (tx, stage) => {
    const { preview, keys, skuCode } = await classifyCardKeys(input.skuId, input.text, input.kind, tx);
    if (preview.fresh !== input.expectFresh) throw appError("conflict", `the keys changed since the preview (${preview.fresh} new now, ${input.expectFresh} previewed); preview again`);
    if (preview.fresh === 0) throw appError("bad_request", "there are no new keys to add");
    for (const key of keys) await stage.add(skuCode, key);
    const { added, batches } = await stage.moveInto();
    const batchId = batches.get(input.skuId);
    if (added !== keys.length || batchId === undefined) throw appError("conflict", "another import added some of these keys at the same time; preview again");
    const { problems: _omit, ...counts } = preview;
    await auditAdmin({ adminUserId: admin.id, actor: admin.email, action: "card_keys.import", targetType: "sku", targetId: String(input.skuId), details: { batchId, source: input.source, ...counts }, ip: admin.ip }, tx);
    return { batchId, preview };
  }, { source: input.source, adminUserId: admin.id, timeout: 120_000 });
}
