import { retryScheduleMs, withJitter } from "../callbacks/callback-config";
import { sendCallback } from "../callbacks/send-callback";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { log } from "../log";
import { enqueueFulfillerEventAttempt } from "./queue-waiting-events";

/** The key header of a push: which token's webhook_secret signed it. */
export const fulfillerKeyOf = (tokenId: number) => `fulfiller-${tokenId}`;

/**
 * Job handler of "fulfiller-event:deliver" (issue 39): one attempt, sent as
 * a catalogue event is (sendCallback: the D27 signature headers, here with
 * the token's webhook_secret and key `fulfiller-<id>`, D28 success and
 * timeout, D29 address checks), then in one transaction: delivered, the
 * next attempt on the D28 schedule, or failed for good. A stale job (its
 * attempt no longer the row's) or a revoked token's event does nothing.
 */
export async function deliverFulfillerEventJob(job: { eventId: number; attempt: number }): Promise<void> {
  const event = await db().fulfillerEvent.findUnique({
    where: { id: job.eventId },
    select: {
      tokenId: true,
      body: true,
      status: true,
      attemptCount: true,
      token: { select: { webhookUrl: true, webhookSecretCiphertext: true, revokedAt: true } },
    },
  });
  if (!event || event.status !== "pending" || event.attemptCount !== job.attempt) return;
  const { webhookUrl, webhookSecretCiphertext, revokedAt } = event.token;
  if (revokedAt || !webhookUrl || !webhookSecretCiphertext) {
    await db().fulfillerEvent.updateMany({
      where: { id: job.eventId, status: "pending" },
      data: { status: "cancelled", nextAttemptAt: null },
    });
    return;
  }
  const result = await sendCallback(webhookUrl, event.body, {
    apiKey: fulfillerKeyOf(event.tokenId),
    apiSecret: decryptText(webhookSecretCiphertext),
  });
  const schedule = retryScheduleMs();
  const outcome = await db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; attemptCount: number }[]>`
      SELECT "status"::text AS "status", "attemptCount" FROM "FulfillerEvent" WHERE "id" = ${job.eventId} FOR UPDATE`;
    if (row?.status !== "pending" || row.attemptCount !== job.attempt) return "stale";
    const attemptCount = job.attempt + 1;
    if (result.ok) {
      await tx.fulfillerEvent.update({
        where: { id: job.eventId },
        data: { status: "delivered", deliveredAt: new Date(), nextAttemptAt: null, lastError: null, attemptCount },
      });
      return "delivered";
    }
    if (job.attempt >= schedule.length) {
      await tx.fulfillerEvent.update({
        where: { id: job.eventId },
        data: { status: "failed", nextAttemptAt: null, lastError: result.error, attemptCount },
      });
      return "failed";
    }
    const nextAttemptAt = new Date(Date.now() + withJitter(schedule[job.attempt]));
    await tx.fulfillerEvent.update({ where: { id: job.eventId }, data: { nextAttemptAt, lastError: result.error, attemptCount } });
    await enqueueFulfillerEventAttempt(tx, job.eventId, attemptCount, nextAttemptAt);
    return "retry";
  });
  const fields = { component: "fulfiller", eventId: job.eventId, attempt: job.attempt + 1, httpStatus: result.httpStatus, outcome };
  if (result.ok) log.info(fields, "fulfiller event delivered");
  else log.warn({ ...fields, error: result.error }, "fulfiller event attempt failed");
}
