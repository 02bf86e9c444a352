import { db } from "../../db/client";
import { alertThreshold } from "../alert-context";
import { deliverAlertNow } from "../deliver-alert-now";
import { enqueueAlert } from "../enqueue-alert";
import { flipAlertCondition } from "../flip-condition";

/**
 * Issue 25: jobs waiting longer than N minutes (default 10) mean the
 * workers are down or far behind, and then the alert's own jobs would wait
 * too: so this check also runs in every app server on a timer
 * (startQueueWatch), and the alert is delivered at once by the process that
 * flipped the condition, besides being queued (the queued delivery then
 * finds it already done).
 */
export async function checkJobQueue(): Promise<number> {
  const minutes = await alertThreshold("queue_stale");
  const [row] = await db().$queryRaw<{ jobs: number; oldest: number | null }[]>`
    SELECT count(*)::int AS jobs, floor(extract(epoch FROM now() - min(run_at)) / 60)::int AS oldest
    FROM graphile_worker._private_jobs
    WHERE locked_at IS NULL AND attempts < max_attempts AND run_at < now() - make_interval(mins => ${minutes}::int)`;
  const stale = row.jobs > 0;
  const eventId = await db().$transaction(async (tx) => {
    const seq = await flipAlertCondition(tx, "queue", stale);
    if (seq === null) return null;
    const kind = stale ? "queue_stale" : "queue_recovered";
    return enqueueAlert(tx, { kind, dedupeKey: `${kind}:${seq}`, params: { jobs: row.jobs, minutes, oldestMinutes: row.oldest } });
  });
  if (eventId !== null) await deliverAlertNow(eventId);
  return eventId === null ? 0 : 1;
}

/** Every app server checks the queue on a timer, worker or not (the check of a stalled queue cannot wait in that queue). */
export function startQueueWatch(intervalMs: number): () => void {
  const timer = setInterval(() => void checkJobQueue().catch(() => undefined), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
