import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { withCardKeyStage } from "./card-key-transaction";
import { readCardKeyText, type CardKeyPreview } from "./preview-card-keys";

/**
 * Keys per chunk of a confirm: an upload has at most 20,000 keys, and with
 * one chunk PostgreSQL waited while every key was sealed, then the app while
 * they moved; chunks of 5,000 overlap the two (a 20,000-key confirm about
 * 50 ms faster, issue 13.3).
 */
const CONFIRM_CHUNK_KEYS = 5_000;

/**
 * Adds the new, well-formed keys of a previewed paste/upload as ONE
 * CardKeyBatch (so it can be undone), skipping duplicates and malformed lines
 * as the preview said. The text is read again inside the transaction and its
 * keys staged; the stage skips those the SKU holds, so what it added is what
 * the preview would say now: if that differs from what the administrator saw
 * (`expectFresh`), nothing is written and they are asked to preview again.
 * The audit row holds counts only, never keys.
 */
export async function confirmCardKeys(
  input: { skuId: number; text: string; kind: "txt" | "csv"; source: "admin-paste" | "admin-upload"; expectFresh: number },
  { actor }: { actor: Actor },
): Promise<{ batchId: number; preview: CardKeyPreview }> {
  return withCardKeyStage(
    async (tx, stage) => {
      const { preview, keys, skuCode } = await readCardKeyText(input.skuId, input.text, input.kind, tx);
      for (const key of keys) await stage.add(skuCode, key);
      const { added, batches } = await stage.moveInto();
      preview.duplicateExisting = keys.length - added;
      preview.fresh = added;
      if (added !== input.expectFresh)
        throw appError("conflict", `the keys changed since the preview (${added} new now, ${input.expectFresh} previewed); preview again`);
      const batchId = batches.get(input.skuId);
      if (batchId === undefined) throw appError("bad_request", "there are no new keys to add");
      const { problems: _omit, ...counts } = preview;
      await writeAuditLog(tx, {
        actor,
        action: "card_keys.import",
        targetType: "sku",
        targetId: String(input.skuId),
        details: { batchId, source: input.source, ...counts },
      });
      return { batchId, preview };
    },
    { source: input.source, adminUserId: actor.kind === "admin" ? actor.id : undefined, timeout: 120_000, chunkKeys: CONFIRM_CHUNK_KEYS },
  );
}
