import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { deliveredLines } from "../order-read/order-view";
import { assertApprovedBuyer } from "../buyer-access/approved-buyer";

/**
 * Issue 24.2: the delivered lines of several of the buyer's orders, for an
 * orders export the buyer asked to include keys in. Orders not the buyer's
 * are skipped (scoped by `userId`). One audit row for the export (the order
 * count and line count, never a key), in the transaction that decrypts.
 */
export async function exportOrderKeys({
  userId,
  orderIds,
  actor,
}: {
  userId: string;
  orderIds: number[];
  actor: Actor;
}): Promise<Map<number, string[]>> {
  return db().$transaction(
    async (tx) => {
      await assertApprovedBuyer(userId, tx); // issue 33.3: nothing decrypted, nothing audited
      const orders = await tx.order.findMany({
        where: { id: { in: orderIds }, userId, status: "delivered" },
        select: { id: true, fulfillment: { select: { payloadCiphertext: true } } },
      });
      const out = new Map<number, string[]>();
      let lines = 0;
      for (const o of orders) {
        if (!o.fulfillment) continue;
        const l = await deliveredLines(tx, o.id, o.fulfillment.payloadCiphertext);
        lines += l.length;
        out.set(o.id, l);
      }
      await writeAuditLog(tx, {
        actor,
        action: "orders.export_keys",
        targetType: "user",
        targetId: userId,
        details: { orders: out.size, lines },
      });
      return out;
    },
    { timeout: 60_000 },
  );
}
