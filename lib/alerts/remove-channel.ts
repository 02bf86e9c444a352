import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";

/**
 * Issue 25: removes a channel. The row stays (marked removed, its secrets
 * wiped) so the alert history still names it; its pending deliveries are
 * dropped and it receives nothing more.
 */
export async function removeAlertChannel({ id }: { id: number }, { actor }: { actor: Actor }): Promise<{ id: number; removed: boolean }> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.alertChannel.updateMany({
      where: { id, deletedAt: null },
      data: { deletedAt: new Date(), secretCiphertext: new Uint8Array(0) },
    });
    if (!count) throw appError("not_found", `no alert channel ${id}`);
    await tx.alertDelivery.updateMany({
      where: { channelId: id, status: "pending" },
      data: { status: "failed", lastError: "channel removed" },
    });
    await writeAuditLog(tx, { actor, action: "alert.channel.remove", targetType: "alert_channel", targetId: String(id) });
    return { id, removed: true };
  });
}
