import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { enqueueJob } from "../jobs/enqueue-job";
import { log } from "../log";
import { openCallbackBody } from "./callback-body";
import { retryScheduleMs, withJitter } from "./callback-config";
import { enqueueCallbackAttempt } from "./queue-callback";
import { sendCallback, type CallbackSendResult } from "./send-callback";
import type { Resolver } from "./address-policy";

/**
 * Job handler of "callback:deliver": one attempt, recorded as a
 * CallbackAttempt, then in the same transaction either done (2xx), the next
 * attempt scheduled by the D28 back-off, or the callback marked failed (and
 * left for the administrator to resend). A job whose attempt number no longer
 * matches the row is stale (a crash re-ran it, or a resend started over) and
 * does nothing, so each scheduled attempt is made at most once in practice.
 */
export async function deliverCallbackJob(job: { callbackId: number; attempt: number }, opts: { resolve?: Resolver } = {}): Promise<void> {
  const callback = await db().callback.findUnique({
    where: { id: job.callbackId },
    select: {
      id: true,
      orderId: true,
      url: true,
      body: true,
      status: true,
      attemptCount: true,
      order: { select: { wireDialect: true, credential: { select: { apiKey: true, secretCiphertext: true } } } },
    },
  });
  if (!callback || callback.status !== "pending" || callback.attemptCount !== job.attempt) return;

  const { apiKey, secretCiphertext } = callback.order.credential;
  const result = await sendCallback(
    callback.url,
    openCallbackBody(callback.body),
    { apiKey, apiSecret: decryptText(secretCiphertext) },
    { ...opts, dialect: callback.order.wireDialect },
  );
  const outcome = await recordAttempt(job, result);
  const fields = {
    component: "callbacks",
    callbackId: callback.id,
    orderId: callback.orderId,
    attempt: job.attempt + 1,
    host: safeHost(callback.url),
    httpStatus: result.httpStatus,
    durationMs: result.durationMs,
    outcome,
  };
  if (result.ok) log.info(fields, "callback delivered");
  else log.warn({ ...fields, error: result.error }, outcome === "failed" ? "callback failed for good" : "callback attempt failed");
}

async function recordAttempt(job: { callbackId: number; attempt: number }, result: CallbackSendResult) {
  const schedule = retryScheduleMs();
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; attemptCount: number }[]>`
      SELECT "status"::text AS status, "attemptCount" FROM "Callback" WHERE "id" = ${job.callbackId} FOR UPDATE`;
    await tx.callbackAttempt.create({
      data: { callbackId: job.callbackId, httpStatus: result.httpStatus, error: result.error, durationMs: result.durationMs },
    });
    if (!row || row.status !== "pending" || row.attemptCount !== job.attempt) return "stale" as const;
    const attemptCount = job.attempt + 1;
    const where = { id: job.callbackId };
    if (result.ok) {
      await tx.callback.update({
        where,
        data: { status: "delivered", attemptCount, deliveredAt: new Date(), nextAttemptAt: null, lastError: null },
      });
      return "delivered" as const;
    }
    if (job.attempt >= schedule.length) {
      await tx.callback.update({ where, data: { status: "failed", attemptCount, nextAttemptAt: null, lastError: result.error } });
      // Issue 25: alerted by lib/alerts, which subscribes to this job (issue 34.1: alerts imports callbacks, so not called from here).
      await enqueueJob(tx, "alert:callback-gave-up", { callbackId: job.callbackId, attempts: attemptCount });
      return "failed" as const;
    }
    const nextAttemptAt = new Date(Date.now() + withJitter(schedule[job.attempt]));
    await tx.callback.update({ where, data: { attemptCount, nextAttemptAt, lastError: result.error } });
    await enqueueCallbackAttempt(tx, job.callbackId, attemptCount, nextAttemptAt);
    return "retry" as const;
  });
}

/** Host only: a callback URL's path or query may carry a downstream token. */
function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "invalid";
  }
}
