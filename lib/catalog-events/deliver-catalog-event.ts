import { alertCatalogEventGaveUp } from "../alerts/order-alerts";
import { retryScheduleMs, withJitter } from "../callbacks/callback-config";
import { sendCallback, type CallbackSendResult } from "../callbacks/send-callback";
import type { Resolver } from "../callbacks/address-policy";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { log } from "../log";
import { cancelDisabledCatalogEvents } from "./cancel-disabled-catalog-events";
import { enqueueCatalogEventAttempt } from "./queue-catalog-event";

type Outcome = "delivered" | "retry" | "failed" | "stale";

/**
 * Job handler of "catalog-event:deliver" (issue 12.2): one attempt, exactly
 * as an order callback is sent (D27 signature with the key's secret over the
 * URL's path, D28 success and timeout, D29 checks at connect), recorded as a
 * CatalogEventAttempt; then, in one transaction, delivered, the next attempt
 * on the D28 schedule, or failed for good (shown in the console, resendable).
 * A job whose attempt number no longer matches the row is stale and does nothing;
 * an event whose key or buyer is disabled is cancelled instead (issue 22.9).
 */
export async function deliverCatalogEventJob(job: { eventId: number; attempt: number }, opts: { resolve?: Resolver } = {}): Promise<void> {
  const event = await db().catalogEvent.findUnique({
    where: { id: job.eventId },
    select: { url: true, body: true, status: true, attemptCount: true, credential: { select: { apiKey: true, secretCiphertext: true } } },
  });
  if (!event || event.status !== "pending" || event.attemptCount !== job.attempt) return;
  if (await cancelDisabledCatalogEvents({ eventId: job.eventId })) {
    log.info(
      { component: "catalog-events", eventId: job.eventId, attempt: job.attempt + 1 },
      "catalogue event cancelled: API key or buyer disabled",
    );
    return;
  }
  const creds = { apiKey: event.credential.apiKey, apiSecret: decryptText(event.credential.secretCiphertext) };
  const result = await sendCallback(event.url, event.body, creds, opts);
  const outcome = await recordEventAttempt(job, result);
  const fields = {
    component: "catalog-events",
    eventId: job.eventId,
    attempt: job.attempt + 1,
    httpStatus: result.httpStatus,
    durationMs: result.durationMs,
    outcome,
  };
  if (result.ok) log.info(fields, "catalogue event delivered");
  else
    log.warn(
      { ...fields, error: result.error },
      outcome === "failed" ? "catalogue event failed for good" : "catalogue event attempt failed",
    );
}

async function recordEventAttempt(job: { eventId: number; attempt: number }, result: CallbackSendResult): Promise<Outcome> {
  const schedule = retryScheduleMs();
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; attemptCount: number }[]>`
      SELECT "status"::text AS status, "attemptCount" FROM "CatalogEvent" WHERE "id" = ${job.eventId} FOR UPDATE`;
    await tx.catalogEventAttempt.create({
      data: { eventId: job.eventId, httpStatus: result.httpStatus, error: result.error, durationMs: result.durationMs },
    });
    if (row?.status !== "pending" || row.attemptCount !== job.attempt) return "stale";
    const attemptCount = job.attempt + 1;
    let outcome: Outcome;
    let data: { status?: "delivered" | "failed"; deliveredAt?: Date; nextAttemptAt: Date | null; lastError: string | null };
    if (result.ok) [outcome, data] = ["delivered", { status: "delivered", deliveredAt: new Date(), nextAttemptAt: null, lastError: null }];
    else if (job.attempt >= schedule.length)
      [outcome, data] = ["failed", { status: "failed", nextAttemptAt: null, lastError: result.error }];
    else [outcome, data] = ["retry", { nextAttemptAt: new Date(Date.now() + withJitter(schedule[job.attempt])), lastError: result.error }];
    await tx.catalogEvent.update({ where: { id: job.eventId }, data: { ...data, attemptCount } });
    if (outcome === "failed") await alertCatalogEventGaveUp(tx, job.eventId, attemptCount); // issue 25
    if (outcome === "retry") await enqueueCatalogEventAttempt(tx, job.eventId, attemptCount, data.nextAttemptAt!);
    return outcome;
  });
}
