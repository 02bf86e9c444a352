import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { AppError } from "../errors";
import { log } from "../log";
import { clientFor, loadConnection } from "../upstream/connection";
import { nextRunDelayMs } from "../upstream/purchase-schedule";
import { UpstreamError } from "../upstream/upstream-client";
import { enqueueUpstreamClaim } from "./queue-upstream-claim";
import { resolveClaim } from "./resolve-claim";
import { upstreamClaims, type UpstreamClaim } from "./upstream-claims";

// Up the chain (issue 26.3): a line we bought from an upstream that speaks
// the after-sales extension is claimed there when our claim opens, and the
// upstream's answer resolves ours. Our claim's upstreamState:
// pending → open → replaced | refunded | rejected, or unsupported / failed.

/** How long we keep asking an upstream about our claim before giving up (the administrator still decides ours). */
const MAX_UPSTREAM_CLAIM_MS = 7 * 24 * 3_600_000;

// Refusals after which asking again cannot help.
const DEFINITE = new Set([
  "bad_request",
  "invalid_json",
  "order_not_found",
  "after_sales_closed",
  "line_already_claimed",
  "idempotency_conflict",
]);

/**
 * Job "after-sales:upstream": one step. Sends our claim (same request_id on
 * every retry, so a lost answer never opens two), or reads the upstream's
 * claims; a replacement or refund there resolves ours the same way, once
 * (resolveClaim refuses a claim already resolved, e.g. by an administrator
 * meanwhile; then only the upstream state is recorded). A rejection upstream
 * leaves ours open for the administrator. Idempotent, bounded in time.
 */
export async function runUpstreamClaimJob({ claimId, run = 0 }: { claimId: number; run?: number }): Promise<void> {
  const claim = await db().afterSalesClaim.findUnique({
    where: { id: claimId },
    select: {
      id: true,
      line: true,
      reason: true,
      upstreamState: true,
      upstreamClaimId: true,
      createdAt: true,
      order: { select: { orderNo: true, upstreamPurchase: { select: { connectionId: true, upstreamOrderId: true } } } },
    },
  });
  const purchase = claim?.order.upstreamPurchase;
  if (!claim || !purchase?.upstreamOrderId || (claim.upstreamState !== "pending" && claim.upstreamState !== "open")) return;
  if (Date.now() - claim.createdAt.getTime() > MAX_UPSTREAM_CLAIM_MS)
    return setUpstream(claimId, "failed", "no resolution from the upstream within 7 days");

  const conn = await loadConnection(purchase.connectionId);
  const client = clientFor(conn);
  const claims = upstreamClaims(client);
  let theirs: UpstreamClaim | undefined;
  try {
    if (!conn.isEnabled) throw new UpstreamError("network", "the upstream connection is disabled");
    if (claim.upstreamState === "pending") {
      theirs = await claims.open(purchase.upstreamOrderId, {
        request_id: `${claim.order.orderNo}-claim-${claim.id}`,
        line: claim.line,
        reason: claim.reason,
      });
      await db().afterSalesClaim.updateMany({
        where: { id: claimId, upstreamState: "pending" },
        data: { upstreamState: "open", upstreamClaimId: theirs.claim_id, upstreamError: null },
      });
    } else {
      theirs = (await claims.list(purchase.upstreamOrderId)).find((c) => c.claim_id === claim.upstreamClaimId);
      if (!theirs) return setUpstream(claimId, "failed", "the upstream no longer lists our claim");
    }
  } catch (err) {
    const e = err instanceof UpstreamError ? err : new UpstreamError("invalid", "unexpected error calling the upstream");
    // An upstream without the extension answers its catch-all 404 not_found (or a 405).
    if (e.kind === "http" && (e.status === 405 || (e.status === 404 && (e.errorCode === "not_found" || e.errorCode === null)))) {
      return setUpstream(claimId, "unsupported", "the upstream does not offer after-sales");
    }
    if (e.kind === "http" && e.status! < 500 && e.errorCode && DEFINITE.has(e.errorCode))
      return setUpstream(claimId, "failed", `refused by the upstream: ${e.errorCode}`);
    await db().afterSalesClaim.update({ where: { id: claimId }, data: { upstreamError: e.message } });
    return scheduleNext(claimId, run);
  }

  if (theirs.state === "open") return scheduleNext(claimId, run);
  if (theirs.state === "rejected") return setUpstream(claimId, "rejected", "rejected by the upstream; decide ours");
  try {
    if (theirs.state === "refunded") {
      await resolveClaim({ claimId, action: "refund", note: "refunded by the upstream", upstreamState: "refunded", actor: SYSTEM_ACTOR });
    } else {
      const order = await client.getOrder(purchase.upstreamOrderId);
      const replacement = order.fulfillment?.delivery_data?.[claim.line];
      if (typeof replacement !== "string" || !replacement.trim() || replacement.length > 10_000) {
        return setUpstream(claimId, "failed", "the upstream replaced the line but its order shows no usable line");
      }
      await resolveClaim({
        claimId,
        action: "replace",
        replacement,
        note: "replaced by the upstream",
        upstreamState: "replaced",
        actor: SYSTEM_ACTOR,
      });
    }
  } catch (err) {
    if (err instanceof AppError && err.code === "claim_resolved") return setUpstream(claimId, theirs.state, null);
    // Decision 0059: a replacement of ours is being bought; its outcome decides first, then this job reads the claim again.
    if (err instanceof AppError && err.code === "claim_replacing") return scheduleNext(claimId, run);
    // Issue 33.4: ours may not be replaced (refunded in full, or the line's replacements used up): the administrator refunds or rejects it.
    if (err instanceof AppError && (err.code === "replace_limit_reached" || err.code === "after_sales_closed"))
      return setUpstream(claimId, theirs.state, `the upstream replaced the line; ours was not: ${err.publicMessage}`);
    if (err instanceof UpstreamError) return scheduleNext(claimId, run);
    throw err;
  }
  log.info({ component: "after-sales", claimId, upstream: theirs.state }, "claim resolved by the upstream");
}

async function setUpstream(claimId: number, state: string, error: string | null): Promise<void> {
  await db().afterSalesClaim.update({ where: { id: claimId }, data: { upstreamState: state, upstreamError: error } });
}

async function scheduleNext(claimId: number, run: number): Promise<void> {
  await db().$transaction((tx) =>
    enqueueUpstreamClaim(tx, claimId, { runAt: new Date(Date.now() + nextRunDelayMs(run + 1)), run: run + 1 }),
  );
}
