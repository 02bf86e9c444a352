import { env } from "../config/env";
import { scheduleSingleton } from "../jobs/schedule-singleton";
import { log } from "../log";
import { checkDailySummary } from "./checks/daily-summary";
import { checkJobQueue } from "./checks/job-queue";
import { checkManualWait } from "./checks/manual-wait";
import { checkStock } from "./checks/stock";
import { checkUpstreams } from "./checks/upstreams";

// Issue 25: the periodic alert checks run as one self-scheduling job, one
// live run for the whole site (the catalogue event tick's pattern,
// lib/jobs/schedule-singleton.ts; every worker start makes sure one exists). Whatever
// runs them, each alert is once per state change: conditions flip once,
// and every alert has a dedupe key.

const TICK_TASK = "alert:tick";
const TICK_QUEUE = "alerts-tick";
const TICK_LOCK = 7_368_225;

const CHECKS: [string, () => Promise<number>][] = [
  ["stock", checkStock],
  ["manual orders waiting", checkManualWait],
  ["job queue", checkJobQueue],
  ["upstreams", checkUpstreams],
  ["daily summary", checkDailySummary],
];

const scheduleTick = (runAt: Date, selfId: bigint | null) =>
  scheduleSingleton(TICK_TASK, { queue: TICK_QUEUE, lock: TICK_LOCK }, runAt, selfId);

/** Job handler: every check (a failing one is logged, the others still run), then the next run. */
export async function alertTickJob(jobId: bigint): Promise<void> {
  for (const [name, check] of CHECKS) {
    try {
      const n = await check();
      if (n) log.debug({ component: "alerts", check: name, n }, "alert check");
    } catch (err) {
      log.error({ component: "alerts", check: name, err: String((err as Error)?.message ?? err) }, "alert check failed");
    }
  }
  await scheduleTick(new Date(Date.now() + env().ALERT_CHECK_INTERVAL_SECONDS * 1000), jobId);
}

/** Worker start repair: a run exists. Returns 1 when one had to be added. */
export async function ensureAlertTick(): Promise<number> {
  return (await scheduleTick(new Date(), null)) ? 1 : 0;
}
