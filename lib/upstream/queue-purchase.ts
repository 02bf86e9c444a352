import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { enqueueJob } from "../jobs/enqueue-job";

export const purchaseJobKey = (purchaseId: number) => `upstream:${purchaseId}`;
/** Attempts graphile-worker makes when the handler itself throws (database down); upstream failures follow our own schedule. */
export const PURCHASE_HANDLER_MAX_ATTEMPTS = 25;

/**
 * Call inside the transaction that creates a paid order of an `upstream`
 * product (before the debit commits it): stores the UpstreamPurchase and
 * enqueues its job, so both commit with the order or not at all.
 *
 * The number sent upstream is our own order number: stable across every retry,
 * so a create repeated after a lost response gets the original upstream order
 * (the upstream's idempotency, spec 4.5) and never buys twice. The deadline is
 * now + the connection's maximum wait (D25). A SKU mapped to a disabled
 * connection is refused (rolling the order back). A SKU not mapped to any
 * upstream (an administrator's `upstream` product without a supplier yet) gets
 * no purchase: the order waits for manual fulfilment like a `manual` one, and
 * null is returned. Idempotent: a second call for the same order adds nothing.
 */
export async function queueUpstreamPurchase(tx: Tx, input: { orderId: number; skuId: number }): Promise<number | null> {
  const [row] = await tx.$queryRaw<{ upstreamSkuId: number | null; connectionId: number | null; maxWaitSeconds: number | null; isEnabled: boolean | null }[]>`
    SELECT s."upstreamSkuId", c."id" AS "connectionId", c."maxWaitSeconds", c."isEnabled"
    FROM "Sku" s JOIN "Product" p ON p."id" = s."productId"
    LEFT JOIN "UpstreamConnection" c ON c."id" = p."upstreamConnectionId"
    WHERE s."id" = ${input.skuId}`;
  if (!row || row.upstreamSkuId === null || row.connectionId === null) return null;
  if (!row.isEnabled) throw appError("sku_unavailable", "sku is not available");
  const inserted = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO "UpstreamPurchase" ("orderId", "connectionId", "downstreamOrderNo", "upstreamSkuId", "status", "deadlineAt", "updatedAt")
    SELECT o."id", ${row.connectionId}, o."orderNo", ${row.upstreamSkuId}, 'pending', now() + make_interval(secs => ${row.maxWaitSeconds}::double precision), now()
    FROM "Order" o WHERE o."id" = ${input.orderId}
    ON CONFLICT ("orderId") DO NOTHING
    RETURNING "id"`;
  if (!inserted.length) {
    const existing = await tx.upstreamPurchase.findUniqueOrThrow({ where: { orderId: input.orderId }, select: { id: true } });
    return existing.id;
  }
  await enqueuePurchaseRun(tx, inserted[0].id);
  return inserted[0].id;
}

/** Schedules the next run of a purchase (create or poll). One pending run per purchase: the key replaces a waiting one. */
export async function enqueuePurchaseRun(tx: Tx, purchaseId: number, runAt?: Date): Promise<void> {
  await enqueueJob(tx, "upstream:purchase", { purchaseId }, {
    jobKey: purchaseJobKey(purchaseId),
    runAt,
    maxAttempts: PURCHASE_HANDLER_MAX_ATTEMPTS,
  });
}
