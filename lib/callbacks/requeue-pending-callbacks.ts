import { db } from "../db/client";
import { enqueueCallbackAttempt } from "./queue-callback";

/**
 * Worker start repair: a pending Callback with no delivery job (a row written
 * without enqueueing, or a job removed by hand) gets its next attempt queued.
 * Returns how many were requeued.
 */
export async function requeuePendingCallbacks(): Promise<number> {
  const orphans = await db().$queryRaw<{ id: number; attemptCount: number; nextAttemptAt: Date | null }[]>`
    SELECT c."id", c."attemptCount", c."nextAttemptAt" FROM "Callback" c
    WHERE c."status" = 'pending'
      AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = 'callback:' || c."id")
    LIMIT 1000`;
  for (const c of orphans) {
    await db().$transaction((tx) => enqueueCallbackAttempt(tx, c.id, c.attemptCount, c.nextAttemptAt ?? undefined));
  }
  return orphans.length;
}
