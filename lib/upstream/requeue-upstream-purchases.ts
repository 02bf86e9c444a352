import { db } from "../db/client";
import { log } from "../log";
import { enqueuePurchaseRun, queueUpstreamPurchase } from "./queue-purchase";

const BATCH = 100;

/**
 * Worker repair (run at start and with every sweep): work that has state in
 * our tables but no job. (1) A processing order of a mapped `upstream` product
 * without an UpstreamPurchase (written by a path that did not queue one) gets
 * its purchase and job. (2) An open purchase (pending or placed) without a job
 * gets one. Cheap and idempotent: the unique orderId and the job key keep both
 * single. Returns how many were repaired.
 */
export async function requeueUpstreamPurchases(): Promise<number> {
  let repaired = 0;
  const orphans = await db().$queryRaw<{ orderId: number; skuId: number }[]>`
    SELECT o."id" AS "orderId", oi."skuId"
    FROM "Order" o
    JOIN "OrderItem" oi ON oi."orderId" = o."id"
    JOIN "Sku" s ON s."id" = oi."skuId" JOIN "Product" p ON p."id" = s."productId"
    WHERE o."status" = 'processing' AND p."fulfillmentType" = 'upstream'
      AND s."upstreamSkuId" IS NOT NULL
      AND EXISTS (SELECT 1 FROM "UpstreamConnection" c WHERE c."id" = p."upstreamConnectionId" AND c."isEnabled")
      AND NOT EXISTS (SELECT 1 FROM "UpstreamPurchase" u WHERE u."orderId" = o."id")
    ORDER BY o."id" LIMIT ${BATCH}`;
  for (const o of orphans) {
    try {
      if (await db().$transaction((tx) => queueUpstreamPurchase(tx, o))) repaired++;
    } catch (err) {
      // A SKU of a disabled connection cannot be bought: the order waits for an administrator.
      log.warn(
        { component: "upstream", orderId: o.orderId, err: (err as Error).message },
        "upstream order without a purchase could not be queued",
      );
    }
  }
  const open = await db().$queryRaw<{ id: number }[]>`
    SELECT u."id" FROM "UpstreamPurchase" u
    LEFT JOIN "Order" o ON o."id" = u."orderId"
    LEFT JOIN "AfterSalesClaim" c ON c."id" = u."claimId"
    -- An order's purchase while the order waits; a claim's replacement (issue 26.3) while the claim is open.
    WHERE u."status" IN ('pending', 'placed') AND (o."status" = 'processing' OR c."state" = 'open')
      AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j."key" = 'upstream:' || u."id")
    ORDER BY u."id" LIMIT ${BATCH}`;
  for (const p of open) {
    await db().$transaction((tx) => enqueuePurchaseRun(tx, p.id));
    repaired++;
  }
  return repaired;
}
