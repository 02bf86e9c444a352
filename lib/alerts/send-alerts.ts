import { retryScheduleMs, withJitter } from "../callbacks/callback-config";
import { env } from "../config/env";
import { db } from "../db/client";
import { log } from "../log";
import { alertContext } from "./alert-context";
import { sendOnChannel } from "./channel-store";
import { enqueueAlertSend } from "./dispatch-alert";
import type { Tx } from "../db/tx";
import { isAlertKind, type AlertKind, type AlertParams } from "./event-kinds";
import { formatAlert } from "./format-message";
import { recordChannelOutcome } from "./record-channel-outcome";
import { reviewButtons } from "./telegram-buttons";

/** At most this many alerts are marked by one message; the rest wait for the next. */
const MAX_BATCH = 5000;
/** Longest a send may hold its transaction: the slowest channel's timeouts (SMTP: connect, greeting, socket) with room. */
const SEND_TRANSACTION_MS = 120_000;

/**
 * Job handler of "alert:send" (issue 25.3): the channel's pending alerts of
 * one kind go out as ONE message (the oldest in full, the others as "and N
 * more"), at most one message per channel and kind per fold window
 * (ALERT_FOLD_WINDOW_SECONDS, 60 s): within it, the job moves itself to the
 * window's end and everything that arrives meanwhile folds in. A failed send
 * is retried on the D28 schedule (CALLBACK_RETRY_SCHEDULE) with whatever has
 * arrived since; after the last attempt the alerts are marked failed. Runs
 * one at a time per channel and kind (its own named queue, and a lock). A
 * crash between the send and the marking sends the message again (at least
 * once).
 */
export async function sendAlertsJob({ channelId, kind }: { channelId: number; kind: string }): Promise<void> {
  if (!isAlertKind(kind)) return;
  // One sender per channel and kind at a time, whoever runs it (a worker's
  // job, or deliverAlertNow in a server while the workers are down): the
  // lock is held across the send, so a second sender finds the alerts marked.
  const outcome = await db().$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`alert-send:${channelId}:${kind}`}))`;
      return sendBatch(tx, channelId, kind);
    },
    { timeout: SEND_TRANSACTION_MS, maxWait: SEND_TRANSACTION_MS },
  );
  if (!outcome) return;
  const fields = {
    component: "alerts",
    channelId,
    kind,
    alerts: outcome.alerts,
    attempt: outcome.attempt,
    durationMs: outcome.result.durationMs,
  };
  if (outcome.result.ok) log.info(fields, "alert sent");
  else log.warn({ ...fields, error: outcome.result.error }, "alert not sent");
}

async function sendBatch(tx: Tx, channelId: number, kind: AlertKind) {
  const channel = await tx.alertChannel.findFirst({ where: { id: channelId, deletedAt: null } });
  if (!channel) return null;
  const windowMs = env().ALERT_FOLD_WINDOW_SECONDS * 1000;
  const last = await tx.alertDelivery.aggregate({ where: { channelId, kind, status: "sent" }, _max: { sentAt: true } });
  const lastSent = last._max.sentAt?.getTime() ?? 0;
  if (Date.now() - lastSent < windowMs) {
    await enqueueAlertSend(tx, channelId, kind, new Date(lastSent + windowMs));
    return null;
  }
  const batch = await tx.alertDelivery.findMany({
    where: { channelId, kind, status: "pending" },
    orderBy: { id: "asc" },
    take: MAX_BATCH,
    select: { id: true, attemptCount: true, event: { select: { params: true, createdAt: true } } },
  });
  if (!batch.length) return null;
  const first = batch[0];
  const ctx = await alertContext();
  const params = first.event.params as AlertParams;
  const message = formatAlert(kind, params, ctx.lang, ctx.baseUrl, batch.length - 1);
  const markup = kind === "order_review" && batch.length === 1 && channel.kind === "telegram" ? reviewButtons(params, ctx) : undefined;
  const result = await sendOnChannel(channel, message, ctx.siteName, markup);

  const ids = batch.map((d) => d.id);
  const schedule = retryScheduleMs();
  const attempt = first.attemptCount; // attempts made before this one
  await recordChannelOutcome(tx, channelId, result);
  if (result.ok) {
    const sentAt = new Date();
    await tx.alertDelivery.update({
      where: { id: first.id },
      data: { status: "sent", sentAt, attemptCount: { increment: 1 }, lastError: null },
    });
    if (ids.length > 1) await tx.alertDelivery.updateMany({ where: { id: { in: ids.slice(1) } }, data: { status: "folded", sentAt } });
    if (batch.length === MAX_BATCH) await enqueueAlertSend(tx, channelId, kind, new Date(sentAt.getTime() + windowMs));
  } else {
    const gaveUp = attempt >= schedule.length;
    await tx.alertDelivery.updateMany({
      where: { id: { in: ids } },
      data: { attemptCount: { increment: 1 }, lastError: result.error, ...(gaveUp ? { status: "failed" as const } : {}) },
    });
    if (!gaveUp) await enqueueAlertSend(tx, channelId, kind, new Date(Date.now() + withJitter(schedule[attempt])));
  }
  return { result, alerts: ids.length, attempt: attempt + 1 };
}
