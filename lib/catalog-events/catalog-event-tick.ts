import { env } from "../config/env";
import { scheduleSingleton } from "../jobs/schedule-singleton";
import { log } from "../log";
import { buildCatalogEvents } from "./build-catalog-events";
import { cancelDisabledCatalogEvents } from "./cancel-disabled-catalog-events";

// Issue 12.2: the periodic builder of catalogue events is one self-scheduling
// graphile-worker job, exclusive across app servers and `npm run worker`
// processes through the database: its runs share one named queue
// (graphile-worker runs a queue's jobs one at a time), a run is added only
// under an advisory lock when no other live run exists, and stamp_catalog
// has its own lock (lib/jobs/schedule-singleton.ts). Every worker start (and
// stale-lock sweep) makes sure a run exists, so the chain survives crashes
// and restores.

const TICK_TASK = "catalog-event:tick";
const TICK_QUEUE = "catalog-events";
const TICK_LOCK = 7_368_222;

/** Half the per-key interval (at least 1 s): an event follows its interval by at most this much. */
export function tickPeriodMs(): number {
  return Math.max(1000, Math.floor((env().CATALOG_EVENT_INTERVAL_SECONDS * 1000) / 2));
}

/** Adds a run at `runAt` unless a live run other than `selfId` exists. Returns whether one was added. */
const scheduleTick = (runAt: Date, selfId: bigint | null) =>
  scheduleSingleton(TICK_TASK, { queue: TICK_QUEUE, lock: TICK_LOCK }, runAt, selfId);

/**
 * Job handler: cancel the pending events of disabled keys and buyers (issue
 * 22.9), build what is due, then schedule the next run. A failed build
 * is logged, not thrown (the next run tries again); a failure to schedule is
 * thrown, so graphile-worker retries this run.
 */
export async function catalogEventTickJob(jobId: bigint): Promise<void> {
  try {
    const cancelled = await cancelDisabledCatalogEvents();
    if (cancelled) log.info({ component: "catalog-events", events: cancelled }, "catalogue events cancelled: API key or buyer disabled");
    const made = await buildCatalogEvents();
    if (made) log.info({ component: "catalog-events", events: made }, "catalogue events built");
  } catch (err) {
    log.error({ component: "catalog-events", err: String((err as Error)?.message ?? err) }, "catalogue event pass failed");
  }
  await scheduleTick(new Date(Date.now() + tickPeriodMs()), jobId);
}

/** Worker start repair: a run exists and can still run. Returns 1 when one had to be added. */
export async function ensureCatalogEventTick(): Promise<number> {
  return (await scheduleTick(new Date(), null)) ? 1 : 0;
}
