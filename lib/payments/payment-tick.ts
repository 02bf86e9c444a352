import { scheduleSingleton } from "../jobs/schedule-singleton";
import { log } from "../log";
import { pollOpenPayments } from "./poll-open-payments";

// Issue 36: the active query of open payments runs every minute as one
// self-scheduling job for the whole site (lib/jobs/schedule-singleton.ts),
// however many app servers and workers share the database.

const TICK_TASK = "payment:tick";
const TICK_QUEUE = "payment-tick";
const TICK_LOCK = 7_368_236;
export const PAYMENT_TICK_SECONDS = 60;

const scheduleTick = (runAt: Date, selfId: bigint | null) =>
  scheduleSingleton(TICK_TASK, { queue: TICK_QUEUE, lock: TICK_LOCK }, runAt, selfId);

/** Job handler: one poll (a failure is logged, not thrown), then the next run. */
export async function paymentTickJob(jobId: bigint): Promise<void> {
  try {
    const { queried, expired } = await pollOpenPayments();
    if (queried || expired) log.info({ component: "payments", queried, expired }, "open payments polled");
  } catch (err) {
    log.error({ component: "payments", err: err instanceof Error ? err.message : String(err) }, "payment poll failed");
  }
  await scheduleTick(new Date(Date.now() + PAYMENT_TICK_SECONDS * 1000), jobId);
}

/** Worker start repair: a run exists. Returns 1 when one had to be added. */
export async function ensurePaymentTick(): Promise<number> {
  return (await scheduleTick(new Date(), null)) ? 1 : 0;
}
