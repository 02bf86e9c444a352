import { SYSTEM_ACTOR } from "../audit/actor";
import type { ClaimReplacementBought } from "../upstream/purchase-target";
import { resolveClaimInTx } from "./resolve-claim";

/**
 * Issue 26.3: a claim's replacement bought from an upstream source resolves
 * its claim as a replace does, with the bought line, in the purchase's
 * transaction. Registered by lib/worker/task-list.ts (issue 34.1: upstream
 * does not import after-sales).
 */
export const resolveClaimWithPurchase: ClaimReplacementBought = async (tx, { claimId, purchaseId, downstreamOrderNo, line }) => {
  await resolveClaimInTx(tx, {
    claimId,
    action: "replace",
    replacement: line,
    note: `bought from an upstream source (${downstreamOrderNo})`,
    actor: SYSTEM_ACTOR,
    purchaseId,
  });
};
