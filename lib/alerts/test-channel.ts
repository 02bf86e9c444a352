import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { alertContext } from "./alert-context";
import { sendOnChannel } from "./channel-store";
import { formatAlert } from "./format-message";
import { recordChannelOutcome } from "./record-channel-outcome";

/**
 * Issue 25: the "send test message" button (and CLI alerts:test): sends a
 * test message now, outside the queue, and answers with the result (ok, or
 * the error in our own words). The outcome counts as the channel's latest,
 * like any send.
 */
export async function testAlertChannel(
  { id }: { id: number },
  { actor }: { actor: Actor },
): Promise<{ id: number; ok: boolean; error: string | null }> {
  const channel = await db().alertChannel.findFirst({ where: { id, deletedAt: null } });
  if (!channel) throw appError("not_found", `no alert channel ${id}`);
  const ctx = await alertContext();
  const result = await sendOnChannel(channel, formatAlert("test", { channel: channel.name }, ctx.lang, ctx.baseUrl), ctx.siteName);
  await db().$transaction(async (tx) => {
    await recordChannelOutcome(tx, id, result);
    await writeAuditLog(tx, {
      actor,
      action: "alert.channel.test",
      targetType: "alert_channel",
      targetId: String(id),
      details: { ok: result.ok },
    });
  });
  return { id, ok: result.ok, error: result.error };
}
