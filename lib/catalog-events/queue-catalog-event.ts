import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";

export const catalogEventJobKey = (eventId: number) => `catalog-event:${eventId}`;
/** Attempts graphile-worker makes when the handler itself fails (database down); HTTP failures follow the D28 schedule. */
const HANDLER_MAX_ATTEMPTS = 8;

/**
 * Issue 12.2: stores one catalog.updated event with its final body and
 * queues its first attempt, in the builder's transaction (the event, its job
 * and the webhook's new cursor commit together). Returns the event id.
 */
export async function queueCatalogEvent(
  tx: Tx,
  input: { credentialId: number; url: string; body: string; productCount: number },
): Promise<number> {
  const event = await tx.catalogEvent.create({ data: { ...input, status: "pending", nextAttemptAt: new Date() }, select: { id: true } });
  await enqueueCatalogEventAttempt(tx, event.id, 0);
  return event.id;
}

/** Schedules attempt number `attempt` (0 = first) of a stored event. */
export async function enqueueCatalogEventAttempt(tx: Tx, eventId: number, attempt: number, runAt?: Date): Promise<void> {
  await enqueueJob(
    tx,
    "catalog-event:deliver",
    { eventId, attempt },
    { jobKey: catalogEventJobKey(eventId), runAt, maxAttempts: HANDLER_MAX_ATTEMPTS },
  );
}
