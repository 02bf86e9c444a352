import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { enqueueJob } from "../jobs/enqueue-job";
import { claimHopOrderNo, type UpstreamSource } from "./choose-source";
import { loadSkuSources, type SkuSources } from "./load-sku-sources";
import { pickFromSources } from "./pick-next-source";

export const purchaseJobKey = (purchaseId: number) => `upstream:${purchaseId}`;
/** Attempts graphile-worker makes when the handler itself throws (database down); upstream failures follow our own schedule. */
export const PURCHASE_HANDLER_MAX_ATTEMPTS = 25;

/**
 * Call inside the transaction that creates a paid order bought from an
 * upstream (before the debit commits it): picks the first hop's source from
 * the SKU's list (issue 26, pick-next-source.ts), stores the UpstreamPurchase
 * and enqueues its job, so both commit with the order or not at all.
 *
 * The first hop sends our own order number (hop-numbered from the second hop
 * on, choose-source.ts): stable across every retry, so a create repeated
 * after a lost response gets the original upstream order (the upstream's
 * idempotency, spec 4.5) and never buys twice. The deadline is now + the
 * chosen connection's maximum wait (D25). A SKU whose upstream sources are
 * all disabled (or skipped by their breakers) is refused (rolling the order
 * back). A SKU with no upstream source (an administrator's `upstream` product
 * without a supplier yet) gets no purchase: the order waits for manual
 * fulfillment like a `manual` one, and null is returned. Idempotent: a second
 * call for the same order adds nothing.
 */
export async function queueUpstreamPurchase(tx: Tx, input: { orderId: number; skuId: number }): Promise<number | null> {
  const existing = await tx.upstreamPurchase.findUnique({ where: { orderId: input.orderId }, select: { id: true } });
  if (existing) return existing.id;
  const [item] = await tx.$queryRaw<{ quantity: number; unitPriceCents: bigint }[]>`
    SELECT "quantity", "unitPriceCents" FROM "OrderItem" WHERE "orderId" = ${input.orderId} ORDER BY "id" LIMIT 1`;
  if (!item) return null;
  return startUpstreamPurchase(tx, { orderId: input.orderId, ...item, sources: await loadSkuSources(input.skuId, tx) });
}

/**
 * The same for an order this transaction has just placed, with the SKU's
 * sources loaded BEFORE the transaction began (issue 26, "Done when": the
 * order transaction holds a pooled connection only for its writes; with the
 * reads inside it, 50 concurrent callers held all 40 connections while each
 * transaction waited on a busy event loop between its nine statements, and
 * callers behind them gave up after Prisma's 2 s wait for a transaction).
 * Reading the list a moment earlier chooses as reading it inside would: no
 * statement here locks what the choice reads.
 */
export async function startUpstreamPurchase(
  tx: Tx,
  input: { orderId: number; quantity: number; unitPriceCents: bigint; sources: SkuSources | null },
): Promise<number | null> {
  const next = pickFromSources(input.sources, { quantity: input.quantity, unitPriceCents: input.unitPriceCents, tried: new Set() });
  if (!next.ok) {
    if (next.why === "none") return null;
    throw appError("sku_unavailable", "sku is not available");
  }
  const { source } = next;
  const inserted = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO "UpstreamPurchase" ("orderId", "connectionId", "downstreamOrderNo", "upstreamSkuId", "status", "deadlineAt", "updatedAt", "hop", "sourceId")
    SELECT o."id", c."id", o."orderNo", ${source.upstreamSkuId}, 'pending', now() + make_interval(secs => c."maxWaitSeconds"::double precision), now(), 1, ${source.id}
    FROM "Order" o, "UpstreamConnection" c WHERE o."id" = ${input.orderId} AND c."id" = ${source.connectionId}
    ON CONFLICT ("orderId") DO NOTHING
    RETURNING "id"`;
  return storedPurchase(tx, inserted, { orderId: input.orderId });
}

/**
 * Issue 26.3 (decision 0059): one unit bought to replace a claimed line, from
 * the source `source` (chosen by the caller with pickFromSources), in the
 * transaction that holds the claim. The same row, job and rules as an order's
 * purchase, tied to the claim instead (one per claim: a second call adds
 * nothing and returns the first's id, so concurrent replace calls start at
 * most one purchase); hop 1 sends "<order_no>-r<claimId>-1".
 */
export async function startClaimPurchase(tx: Tx, input: { claimId: number; orderNo: string; source: UpstreamSource }): Promise<number> {
  const { source } = input;
  const inserted = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO "UpstreamPurchase" ("claimId", "connectionId", "downstreamOrderNo", "upstreamSkuId", "status", "deadlineAt", "updatedAt", "hop", "sourceId")
    SELECT ${input.claimId}, c."id", ${claimHopOrderNo(input.orderNo, input.claimId, 1)}, ${source.upstreamSkuId}, 'pending',
           now() + make_interval(secs => c."maxWaitSeconds"::double precision), now(), 1, ${source.id}
    FROM "UpstreamConnection" c WHERE c."id" = ${source.connectionId}
    ON CONFLICT ("claimId") DO NOTHING
    RETURNING "id"`;
  return storedPurchase(tx, inserted, { claimId: input.claimId });
}

/** The purchase an INSERT … ON CONFLICT DO NOTHING made, its first run enqueued; else the one already stored for `key`. */
async function storedPurchase(tx: Tx, inserted: { id: number }[], key: { orderId: number } | { claimId: number }): Promise<number> {
  if (!inserted.length) return (await tx.upstreamPurchase.findUniqueOrThrow({ where: key, select: { id: true } })).id;
  await enqueuePurchaseRun(tx, inserted[0].id);
  return inserted[0].id;
}

/** Schedules the next run of a purchase (create or poll). One pending run per purchase: the key replaces a waiting one. */
export async function enqueuePurchaseRun(tx: Tx, purchaseId: number, runAt?: Date): Promise<void> {
  await enqueueJob(
    tx,
    "upstream:purchase",
    { purchaseId },
    {
      jobKey: purchaseJobKey(purchaseId),
      runAt,
      maxAttempts: PURCHASE_HANDLER_MAX_ATTEMPTS,
    },
  );
}
