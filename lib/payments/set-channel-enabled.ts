import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { channelView } from "./add-channel";

/** Issue 36: disables (or enables again) a channel: a disabled channel takes no new payment; its open ones still settle. */
export async function setChannelEnabled({ id, enabled, actor }: { id: number; enabled: boolean; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const found = await tx.paymentChannel.findUnique({ where: { id }, select: { id: true } });
    if (!found) throw appError("channel_not_found", `no payment channel ${id}`);
    const row = await tx.paymentChannel.update({ where: { id }, data: { enabled } });
    await writeAuditLog(tx, {
      actor,
      action: enabled ? "payment_channel.enable" : "payment_channel.disable",
      targetType: "payment_channel",
      targetId: String(id),
      details: { name: row.name },
    });
    return channelView(row);
  });
}
