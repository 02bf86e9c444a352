import { env } from "../config/env";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";
import { log } from "../log";
import { buildCatalogEvents } from "./build-catalog-events";

// Issue 12.2: the periodic builder of catalogue events is one self-scheduling
// graphile-worker job. Exclusive across app servers and `npm run worker`
// processes through the database: one job key (at most one waiting run) in
// one named queue (graphile-worker runs a queue's jobs one at a time), and
// stamp_catalog's own advisory lock. Every worker start (and stale-lock
// sweep) makes sure it exists, so it survives crashes and restores.

const TICK_KEY = "catalog-event:tick";
const TICK_QUEUE = "catalog-events";

/** Half the per-key interval (at least 1 s): an event follows its interval by at most this much. */
export function tickPeriodMs(): number {
  return Math.max(1000, Math.floor((env().CATALOG_EVENT_INTERVAL_SECONDS * 1000) / 2));
}

async function scheduleTick(tx: Tx, runAt: Date): Promise<void> {
  // Many attempts: a handler error (database away) must not end the ticking.
  await enqueueJob(tx, "catalog-event:tick", {}, { jobKey: TICK_KEY, queueName: TICK_QUEUE, runAt, maxAttempts: 1000 });
}

/**
 * Job handler: build what is due, then schedule the next run. A failed build
 * is logged, not thrown: the next run retries it (a thrown tick would stay
 * behind as a failed job, since scheduling the next one detaches this one).
 */
export async function catalogEventTickJob(): Promise<void> {
  try {
    const made = await buildCatalogEvents();
    if (made) log.info({ component: "catalog-events", events: made }, "catalogue events built");
  } catch (err) {
    log.error({ component: "catalog-events", err: String((err as Error)?.message ?? err) }, "catalogue event pass failed");
  }
  await scheduleTick(db(), new Date(Date.now() + tickPeriodMs()));
}

/** Worker start repair: the tick exists and can still run. Returns 1 when it had to be (re)created. */
export async function ensureCatalogEventTick(): Promise<number> {
  const [row] = await db().$queryRaw<{ ok: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = ${TICK_KEY} AND j.attempts < j.max_attempts) AS ok`;
  if (row?.ok) return 0;
  await scheduleTick(db(), new Date());
  return 1;
}
