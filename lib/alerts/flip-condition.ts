import type { Tx } from "../db/tx";

/**
 * Issue 25: a condition that alerts when it begins and when it ends (a SKU's
 * stock below its threshold, an upstream down, the job queue stale). Sets it
 * to `active` and returns the crossing's number when that is a change, or
 * null when it already was so. One guarded upsert: of any number of
 * concurrent callers (sales, instances, workers) exactly one sees the change,
 * because PostgreSQL re-checks the WHERE on the row it locked. The number
 * goes into the alert's dedupe key, so the next crossing alerts again.
 */
export async function flipAlertCondition(tx: Tx, key: string, active: boolean): Promise<number | null> {
  const rows = await tx.$queryRaw<{ seq: number; inserted: boolean }[]>`
    INSERT INTO "AlertCondition" ("key", "active", "seq", "changedAt")
    VALUES (${key}, ${active}, 1, now())
    ON CONFLICT ("key") DO UPDATE SET "active" = EXCLUDED."active", "seq" = "AlertCondition"."seq" + 1, "changedAt" = now()
    WHERE "AlertCondition"."active" IS DISTINCT FROM EXCLUDED."active"
    RETURNING "seq", (xmax = 0) AS inserted`;
  // A first row that starts inactive is no crossing: nothing was wrong before.
  if (!rows.length || (rows[0].inserted && !active)) return null;
  return rows[0].seq;
}
