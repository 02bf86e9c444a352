import { db } from "../db/client";
import { log } from "../log";
import { enqueuePurchaseRun } from "./queue-purchase";
import { upstreamTimeoutMs } from "./upstream-client";

// Issue 37.3 (decision 0092): one run of a purchase at a time talks to its
// upstream. The job key keeps one WAITING run per purchase, but a run that is
// already executing does not stop another from starting (graphile-worker adds
// a new job when the keyed one is locked: a callback or an administrator's
// re-check during a run). Two runs could then send the same create at once,
// and a Dujiao-Next supplier's duplicate check of downstream_order_no has no
// unique index: both could buy. The lease is a time in the purchase's row,
// taken with one conditional UPDATE, so it needs no held database connection
// during the HTTP call and frees itself if the process dies.

/** Longer than any one run's calls: a create or poll with its replay retries (upstream-client.ts), plus a margin. */
export function purchaseLeaseSeconds(): number {
  return Math.ceil((3 * upstreamTimeoutMs() + 2_100) / 1000) + 10;
}

/**
 * Runs `step` while holding the purchase's lease. When another run holds it,
 * nothing is sent: a run is queued a second later (or when that lease ends,
 * if sooner), so the purchase is followed up whether the holder finishes, is
 * slow, or died; the holder's own next run, keyed alike, replaces it.
 */
export async function withPurchaseLease(purchaseId: number, step: () => Promise<void>): Promise<void> {
  const seconds = purchaseLeaseSeconds();
  const [lease] = await db().$queryRaw<{ until: Date }[]>`
    UPDATE "UpstreamPurchase" SET "callLeaseUntil" = now() + make_interval(secs => ${seconds}::double precision)
    WHERE "id" = ${purchaseId} AND ("callLeaseUntil" IS NULL OR "callLeaseUntil" < now())
    RETURNING "callLeaseUntil" AS "until"`;
  if (!lease) {
    const [held] = await db().$queryRaw<{ until: Date | null }[]>`
      SELECT "callLeaseUntil" AS "until" FROM "UpstreamPurchase" WHERE "id" = ${purchaseId}`;
    if (!held) return;
    const at = Math.min(Date.now() + 1000, (held.until?.getTime() ?? 0) + 100);
    await db().$transaction((tx) => enqueuePurchaseRun(tx, purchaseId, new Date(Math.max(at, Date.now()))));
    log.info({ component: "upstream", purchaseId }, "upstream purchase busy in another run; follow-up queued");
    return;
  }
  try {
    await step();
  } finally {
    // Only our own lease: a run that outlived it must not free a later run's.
    await db().$executeRaw`
      UPDATE "UpstreamPurchase" SET "callLeaseUntil" = NULL WHERE "id" = ${purchaseId} AND "callLeaseUntil" = ${lease.until}`;
  }
}
