import { db } from "../db/client";
import { appError } from "../errors";
import { log } from "../log";
import { StockEventSchema, stockOfEvent } from "./source-stock-page";

/**
 * Issue 26.1: a signed `catalog.updated` event of a Profile U upstream
 * (verified by receive-upstream-callback.ts, our one endpoint for what an
 * upstream sends) sets the last known stock of the sources pointing at the
 * SKUs it names. Checked whole before anything is written (figures -1..2^31-1
 * whole numbers, each SKU once, at most 500 products): one bad figure is 400
 * and nothing changes. A product is applied only when its `updated_at` is
 * newer than the one that last set the source's stock (`lastStockAt`), as the
 * protocol asks of every receiver: a replayed, resent or late event changes
 * nothing. Returns the number of sources whose stock moved.
 */
export async function applyUpstreamCatalogEvent(connectionId: number, body: unknown): Promise<number> {
  const parsed = StockEventSchema.safeParse(body);
  if (!parsed.success) throw appError("bad_request", "catalogue event refused: a product or SKU is malformed; nothing was changed");
  const { skuIds, stocks, stamps } = stockOfEvent(parsed.data);
  if (skuIds.length === 0) return 0;
  const updated = await db().$executeRaw`
    UPDATE "SkuSource" ss SET "lastStock" = v.stock, "lastStockAt" = (v.at AT TIME ZONE 'UTC')
    FROM unnest(${skuIds}::int[], ${stocks}::int[], ${stamps}::timestamptz[]) AS v(sku, stock, at)
    WHERE ss."kind" = 'upstream' AND ss."connectionId" = ${connectionId} AND ss."upstreamSkuId" = v.sku
      AND (ss."lastStockAt" IS NULL OR ss."lastStockAt" < (v.at AT TIME ZONE 'UTC'))`;
  log.info({ component: "upstream", connectionId, skus: skuIds.length, sources: updated }, "upstream catalogue event applied");
  return updated;
}
