import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";
import { ALERT_KINDS, isAlertKind } from "./event-kinds";

const sendJobKey = (channelId: number, kind: string) => `alert-send:${channelId}:${kind}`;

/**
 * Job handler of "alert:dispatch": one delivery row per live channel whose
 * rule for the event's kind is on (or, without a rule, the kind's default),
 * and that channel's send job for the kind. Idempotent: a delivery is unique
 * per (event, channel), and the send job's key keeps one waiting job per
 * channel and kind, whose run time a later alert does not postpone.
 */
export async function dispatchAlertJob({ eventId }: { eventId: string }): Promise<void> {
  await db().$transaction(async (tx) => {
    const event = await tx.alertEvent.findUnique({ where: { id: BigInt(eventId) }, select: { id: true, kind: true } });
    if (!event || !isAlertKind(event.kind)) return;
    // In id order: each channel's send job row is locked in turn, and two dispatches taking
    // them in different orders deadlock (a send's update moves its channel in the table).
    const channels = await tx.alertChannel.findMany({
      where: { deletedAt: null },
      orderBy: { id: "asc" },
      select: { id: true, rules: { where: { event: event.kind }, select: { enabled: true } } },
    });
    for (const channel of channels) {
      if (!(channel.rules[0]?.enabled ?? ALERT_KINDS[event.kind].on)) continue;
      const { count } = await tx.alertDelivery.createMany({
        data: [{ eventId: event.id, channelId: channel.id, kind: event.kind }],
        skipDuplicates: true,
      });
      if (count) await enqueueAlertSend(tx, channel.id, event.kind);
    }
  });
}

/** The channel's send job for a kind: now, unless one already waits (then that one's time stands). */
export async function enqueueAlertSend(tx: Tx, channelId: number, kind: string, runAt?: Date): Promise<void> {
  const key = sendJobKey(channelId, kind);
  await enqueueJob(
    tx,
    "alert:send",
    { channelId, kind },
    {
      jobKey: key,
      // A reschedule (runAt given) moves the waiting job; a new alert never postpones it.
      jobKeyMode: runAt ? "replace" : "preserve_run_at",
      queueName: key,
      runAt,
      maxAttempts: 25,
    },
  );
}
