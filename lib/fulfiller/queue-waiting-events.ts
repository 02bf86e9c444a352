import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";
import { scheduleSingleton } from "../jobs/schedule-singleton";
import { log } from "../log";

// Issue 39: the optional push. A self-scheduling job (one live run for the
// site, as the catalogue event tick) stores one order.waiting event per
// webhook token and waiting manual order in its scope, made after the token,
// and queues its delivery. The unique (token, order) index makes each event
// once, whichever run or instance sees the order first; orders placed by the
// batched place_order path need no hook of their own.

const TICK_TASK = "fulfiller:tick";
const TICK = { queue: "fulfiller-events", lock: 7_368_239 };
/** How soon a waiting order is pushed, at most. */
export const FULFILLER_TICK_MS = 2000;

export const fulfillerEventJobKey = (eventId: number) => `fulfiller-event:${eventId}`;

/** Schedules attempt number `attempt` (0 = first) of a stored event. */
export async function enqueueFulfillerEventAttempt(tx: Tx, eventId: number, attempt: number, runAt?: Date): Promise<void> {
  await enqueueJob(tx, "fulfiller-event:deliver", { eventId, attempt }, { jobKey: fulfillerEventJobKey(eventId), runAt, maxAttempts: 8 });
}

/** Stores the events of orders that started waiting and queues their first attempts. Returns how many. */
export async function queueWaitingEvents(): Promise<number> {
  return db().$transaction(async (tx) => {
    const made = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO "FulfillerEvent" ("tokenId", "orderId", "body", "nextAttemptAt")
      SELECT t."id", o."id",
             json_build_object('event', 'order.waiting', 'order_no', o."orderNo", 'order_id', o."id", 'product_id', oi."productId",
               'sku_id', oi."skuId", 'quantity', oi."quantity",
               'created_at', to_char(o."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text,
             now() AT TIME ZONE 'UTC'
      FROM "FulfillerToken" t
      JOIN "Order" o ON o."status" = 'processing' AND o."createdAt" >= t."createdAt"
      JOIN LATERAL (SELECT * FROM "OrderItem" i WHERE i."orderId" = o."id" ORDER BY i."id" LIMIT 1) oi ON true
      JOIN "Product" p ON p."id" = oi."productId"
      WHERE t."webhookUrl" IS NOT NULL AND t."revokedAt" IS NULL AND p."fulfillmentType" = 'manual'
        AND (cardinality(t."productIds") = 0 OR p."id" = ANY(t."productIds"))
        AND NOT EXISTS (SELECT 1 FROM "FulfillerEvent" e WHERE e."tokenId" = t."id" AND e."orderId" = o."id")
      ORDER BY o."createdAt"
      LIMIT 1000
      ON CONFLICT ("tokenId", "orderId") DO NOTHING
      RETURNING "id"`;
    for (const e of made) await enqueueFulfillerEventAttempt(tx, e.id, 0);
    return made.length;
  });
}

/** Job handler: one pass, then the next run (a failed pass is logged; the next one tries again). */
export async function fulfillerTickJob(jobId: bigint): Promise<void> {
  try {
    const made = await queueWaitingEvents();
    if (made) log.info({ component: "fulfiller", events: made }, "fulfiller webhook events queued");
  } catch (err) {
    log.error({ component: "fulfiller", err: String((err as Error)?.message ?? err) }, "fulfiller event pass failed");
  }
  await scheduleSingleton(TICK_TASK, TICK, new Date(Date.now() + FULFILLER_TICK_MS), jobId);
}

/** Worker start: a run exists. */
export async function ensureFulfillerTick(): Promise<number> {
  return (await scheduleSingleton(TICK_TASK, TICK, new Date(), null)) ? 1 : 0;
}
