import { db } from "../db/client";
import { enqueueJob, type JobName } from "./enqueue-job";

/**
 * A self-scheduling job with one live run for the whole site (the catalogue
 * event tick, the alert checks): its runs share one named queue
 * (graphile-worker runs a queue's jobs one at a time), and a run is added
 * only under an advisory lock when no other live run than `selfId` exists.
 * No job key: adding a keyed job while its twin runs would mark the running
 * one failed for good should its process die. Returns whether one was added.
 */
export async function scheduleSingleton(
  task: JobName,
  { queue, lock }: { queue: string; lock: number },
  runAt: Date,
  selfId: bigint | null,
): Promise<boolean> {
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lock})`;
    const [row] = await tx.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = ${task} AND j.attempts < j.max_attempts AND j.id IS DISTINCT FROM ${selfId}::bigint`;
    if (row.n > 0n) return false;
    // Many attempts: a handler error (database away) must not end the chain.
    await enqueueJob(tx, task, {}, { queueName: queue, runAt, maxAttempts: 1000 });
    return true;
  });
}
