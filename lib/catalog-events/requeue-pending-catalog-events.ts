import { db } from "../db/client";
import { enqueueCatalogEventAttempt } from "./queue-catalog-event";

/**
 * Worker start repair (issue 12.2): a pending catalogue event with no
 * delivery job (jobs are not in a backup, or were removed by hand) gets its
 * next attempt queued, so a stored event is always delivered or given up.
 */
export async function requeuePendingCatalogEvents(): Promise<number> {
  const orphans = await db().$queryRaw<{ id: number; attemptCount: number; nextAttemptAt: Date | null }[]>`
    SELECT e."id", e."attemptCount", e."nextAttemptAt" FROM "CatalogEvent" e
    WHERE e."status" = 'pending'
      AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = 'catalog-event:' || e."id")
    ORDER BY e."id" LIMIT 1000`;
  for (const e of orphans) {
    await db().$transaction((tx) => enqueueCatalogEventAttempt(tx, e.id, e.attemptCount, e.nextAttemptAt ?? undefined));
  }
  return orphans.length;
}
