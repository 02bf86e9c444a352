import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";

export const upstreamClaimJobKey = (claimId: number) => `after-sales:${claimId}`;

/** Schedules the next step of our claim at the upstream (claim-upstream.ts); one waiting run per claim. */
export async function enqueueUpstreamClaim(tx: Tx, claimId: number, opts: { runAt?: Date; run?: number } = {}): Promise<void> {
  await enqueueJob(
    tx,
    "after-sales:upstream",
    { claimId, run: opts.run ?? 0 },
    { jobKey: upstreamClaimJobKey(claimId), runAt: opts.runAt, maxAttempts: 25 },
  );
}

/** The upstream told us (order.updated) that an order we bought changed: read our open claims there now instead of at the next poll. */
export async function pollOpenUpstreamClaims(orderId: number): Promise<number> {
  const claims = await db().afterSalesClaim.findMany({ where: { orderId, upstreamState: "open" }, select: { id: true } });
  if (claims.length)
    await db().$transaction(async (tx) => {
      for (const c of claims) await enqueueUpstreamClaim(tx, c.id);
    });
  return claims.length;
}
