import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/**
 * Undoes a card-key batch: deletes its keys, but ONLY while none of them has
 * been delivered. Chosen rule: all or nothing — if any key of the batch was
 * sold, the undo is refused (a partial undo would leave a batch that is half
 * there, and the administrator can still see and count the rest).
 *
 * Race with an order picking a key: the DELETE locks the available rows (an
 * order's pick skips locked rows or waits for them); the delivered count is
 * taken afterwards in the same transaction, and any delivered key rolls the
 * whole undo back.
 */
export async function undoCardKeyBatch(batchId: number, { actor }: { actor: Actor }): Promise<{ deleted: number }> {
  return db().$transaction(async (tx) => {
    const batch = await tx.cardKeyBatch.findUnique({ where: { id: batchId } });
    if (!batch) throw appError("not_found", "batch not found");
    if (batch.undoneAt) throw appError("conflict", "this batch was already undone");
    const { count } = await tx.cardKey.deleteMany({ where: { batchId, status: "available" } });
    const delivered = await tx.cardKey.count({ where: { batchId, status: "delivered" } });
    if (delivered > 0) throw appError("conflict", `${delivered} key(s) of this batch were already delivered; the batch cannot be undone`);
    await tx.cardKeyBatch.update({ where: { id: batchId }, data: { undoneAt: new Date() } });
    await writeAuditLog(tx, {
      actor,
      action: "card_keys.undo_batch",
      targetType: "sku",
      targetId: String(batch.skuId),
      details: { batchId, deleted: count },
    });
    return { deleted: count };
  });
}
