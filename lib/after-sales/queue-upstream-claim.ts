import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";

export const upstreamClaimJobKey = (claimId: number) => `after-sales:${claimId}`;

/** Schedules the next step of our claim at the upstream (claim-upstream.ts); one waiting run per claim. */
export async function enqueueUpstreamClaim(tx: Tx, claimId: number, opts: { runAt?: Date; run?: number } = {}): Promise<void> {
  await enqueueJob(tx, "after-sales:upstream", { claimId, run: opts.run ?? 0 }, { jobKey: upstreamClaimJobKey(claimId), runAt: opts.runAt, maxAttempts: 25 });
}
