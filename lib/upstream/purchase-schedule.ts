import { env } from "../config/env";
import { withJitter } from "../callbacks/callback-config";

// Bounded back-off between the runs of an upstream purchase (create retries
// and polls of the upstream order): separate jobs scheduled with runAt, never
// a sleeping loop, and never past the purchase's deadline (D25).
const DEFAULT_SCHEDULE_SECONDS = [2, 5, 10, 20, 30, 60, 120, 300];

/**
 * Delay before run number `runsDone` + 1, in ms. UPSTREAM_POLL_SCHEDULE
 * (comma-separated seconds, decimals allowed) replaces the schedule; its last
 * value repeats until the deadline.
 */
export function nextRunDelayMs(runsDone: number): number {
  // Checked at start (lib/config/env.ts), not here in the middle of a job.
  const schedule = env().UPSTREAM_POLL_SCHEDULE ?? DEFAULT_SCHEDULE_SECONDS;
  const seconds = schedule[Math.min(Math.max(runsDone - 1, 0), schedule.length - 1)];
  return withJitter(seconds * 1000);
}

/** The next run: after the back-off, but no later than the deadline (where the purchase goes to review). */
export function nextRunAt(runsDone: number, deadlineAt: Date, now = Date.now()): Date {
  return new Date(Math.min(now + nextRunDelayMs(runsDone), deadlineAt.getTime()));
}
