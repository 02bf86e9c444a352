import { env } from "../config/env";
import { scheduleSingleton } from "../jobs/schedule-singleton";
import { log } from "../log";
import { refreshSourceStock } from "./refresh-source-stock";

// Issue 26.1: the stock refresh runs every UPSTREAM_STOCK_REFRESH_SECONDS as
// one self-scheduling job, one live run for the whole site however many app
// servers and workers share the database (the catalogue event tick's pattern,
// lib/jobs/schedule-singleton.ts); every worker start makes sure one exists.
// 0 turns it off. `sku:refresh-stock` runs the same refresh at once; the
// lease per connection (refresh-source-stock.ts) keeps the two apart.

const TICK_TASK = "upstream:stock-refresh";
const TICK_QUEUE = "upstream-stock";
const TICK_LOCK = 7_368_226;

const scheduleTick = (runAt: Date, selfId: bigint | null) =>
  scheduleSingleton(TICK_TASK, { queue: TICK_QUEUE, lock: TICK_LOCK }, runAt, selfId);

/** Job handler: one refresh (a failure is logged, not thrown), then the next run. */
export async function sourceStockTickJob(jobId: bigint): Promise<void> {
  const seconds = env().UPSTREAM_STOCK_REFRESH_SECONDS;
  if (seconds === 0) return;
  try {
    const results = await refreshSourceStock();
    const updated = results.reduce((n, r) => n + r.sourcesUpdated, 0);
    if (updated) log.info({ component: "upstream", sources: updated }, "source stock refreshed");
  } catch (err) {
    log.error({ component: "upstream", err: String((err as Error)?.message ?? err) }, "source stock refresh failed");
  }
  await scheduleTick(new Date(Date.now() + seconds * 1000), jobId);
}

/** Worker start repair: a run exists (unless the refresh is off). Returns 1 when one had to be added. */
export async function ensureSourceStockTick(): Promise<number> {
  if (env().UPSTREAM_STOCK_REFRESH_SECONDS === 0) return 0;
  return (await scheduleTick(new Date(), null)) ? 1 : 0;
}
