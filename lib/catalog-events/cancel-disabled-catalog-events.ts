import { db } from "../db/client";

/** The last error of a cancelled event, as the console and `catalog-event:list` show it. */
export const CANCELLED_ERROR = "API key or buyer disabled";

/**
 * Issue 22.9 (decision 0031): a catalogue event still waiting for delivery
 * whose API key or buyer is disabled is cancelled: never sent again, since
 * its body holds that buyer's (level) prices and the buyer may no longer see
 * them. Checked against the key and buyer rows at the moment of use, not
 * when something disables them, so it holds however that happened (console,
 * CLI, a rotation, SQL): the delivery job runs it for its event before every
 * attempt, the tick for all pending events (so the console shows them
 * cancelled without waiting for their next attempt). Order callbacks are
 * not touched: an order that was paid is still reported (D26). Returns the
 * number of events cancelled.
 */
export async function cancelDisabledCatalogEvents(q: { eventId?: number } = {}): Promise<number> {
  const eventId = q.eventId ?? null;
  return db().$executeRaw`
    UPDATE "CatalogEvent" e SET "status" = 'cancelled', "nextAttemptAt" = NULL, "lastError" = ${CANCELLED_ERROR}
    FROM "ApiCredential" k JOIN "User" u ON u."id" = k."userId"
    WHERE k."id" = e."credentialId" AND e."status" = 'pending' AND (NOT k."isActive" OR u."status" <> 'active')
      AND (${eventId}::int IS NULL OR e."id" = ${eventId}::int)`;
}
