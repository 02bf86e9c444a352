import type { Tx } from "../db/tx";
import type { UpstreamStock } from "./source-stock-page";

/**
 * Issue 26.1: what an upstream told us of some of its products becomes the
 * last known stock of the sources pointing at their SKUs, in the caller's
 * transaction. One rule for every feed (stock refresh, catalogue event,
 * import; decision 0049):
 *
 * - a listed SKU: its figure, and the source learns the SKU's product;
 * - a SKU gone (its product listed without it, or a tombstone): 0, so a
 *   downstream never sees stock that cannot be bought. A source knows its
 *   SKU's product from the last listing, else from the SKU we imported.
 *   Listed again, it takes its figure again.
 *
 * `ordered` (catalogue events): a product is applied to a source only when
 * its `updated_at` is newer than the one that last set it (`lastStockAt`),
 * and to our imported copy only when newer than the last event applied to
 * it (`UpstreamProductStamp`), so a replayed or late event changes nothing.
 * Only what differs is written (the triggers restamp the catalogue for every
 * write). `copies`: "all" — the SKUs imported from this upstream take the
 * figures too (listed and gone), "gone" — only the gone ones (the import
 * writes the listed ones itself). Returns the number of sources written.
 */
export async function storeUpstreamStock(
  tx: Tx,
  connectionId: number,
  s: UpstreamStock,
  opts: { ordered: boolean; copies: "all" | "gone" },
): Promise<number> {
  const ordered = opts.ordered;
  // Gone first: a SKU that moved to a product listed in the same batch then takes its figure.
  // Set-based (hash joins, not a scan of the arrays per row): an import passes a whole catalogue.
  const gone = await tx.$executeRaw`
    WITH copies AS (
      SELECT DISTINCT ON (i."upstreamSkuId") i."upstreamSkuId" AS sku, ip."upstreamProductId" AS product
      FROM unnest(${s.productIds}::int[]) AS e(product)
      JOIN "Product" ip ON ip."upstreamConnectionId" = ${connectionId} AND ip."upstreamProductId" = e.product
      JOIN "Sku" i ON i."productId" = ip."id"
      WHERE i."deletedAt" IS NULL AND i."upstreamSkuId" IS NOT NULL
      ORDER BY i."upstreamSkuId", i."id"
    ), unlisted AS (
      SELECT ss."id", coalesce(ss."upstreamProductId", c.product) AS product
      FROM "SkuSource" ss LEFT JOIN copies c ON c.sku = ss."upstreamSkuId"
      WHERE ss."kind" = 'upstream' AND ss."connectionId" = ${connectionId} AND ss."upstreamSkuId" IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM unnest(${s.skuIds}::int[]) AS l(sku) WHERE l.sku = ss."upstreamSkuId")
    )
    UPDATE "SkuSource" ss SET "lastStock" = 0, "upstreamProductId" = e.product,
      "lastStockAt" = CASE WHEN ${ordered} THEN (e.at AT TIME ZONE 'UTC') ELSE ss."lastStockAt" END
    FROM unlisted u JOIN unnest(${s.productIds}::int[], ${s.productStamps}::timestamptz[]) AS e(product, at) ON e.product = u.product
    WHERE ss."id" = u."id"
      AND CASE WHEN ${ordered} THEN ss."lastStockAt" IS NULL OR ss."lastStockAt" < (e.at AT TIME ZONE 'UTC')
               ELSE ss."lastStock" IS DISTINCT FROM 0 OR ss."upstreamProductId" IS DISTINCT FROM e.product END`;
  const listed = await tx.$executeRaw`
    UPDATE "SkuSource" ss SET "lastStock" = v.stock, "upstreamProductId" = v.product,
      "lastStockAt" = CASE WHEN ${ordered} THEN (v.at AT TIME ZONE 'UTC') ELSE ss."lastStockAt" END
    FROM unnest(${s.skuIds}::int[], ${s.stocks}::int[], ${s.skuProducts}::int[], ${s.stamps}::timestamptz[]) AS v(sku, stock, product, at)
    WHERE ss."kind" = 'upstream' AND ss."connectionId" = ${connectionId} AND ss."upstreamSkuId" = v.sku
      AND CASE WHEN ${ordered} THEN ss."lastStockAt" IS NULL OR ss."lastStockAt" < (v.at AT TIME ZONE 'UTC')
               ELSE ss."lastStock" IS DISTINCT FROM v.stock OR ss."upstreamProductId" IS DISTINCT FROM v.product END`;
  const c = ordered ? await newerForCopies(tx, connectionId, s) : s;
  // What an import writes for a SKU it no longer finds in its product: it cannot be bought.
  await tx.$executeRaw`
    UPDATE "Sku" s SET "stockQuantity" = 0
    FROM "Product" p JOIN unnest(${c.productIds}::int[]) AS e(product) ON e.product = p."upstreamProductId"
    WHERE p."id" = s."productId" AND p."upstreamConnectionId" = ${connectionId}
      AND s."deletedAt" IS NULL AND s."upstreamSkuId" IS NOT NULL AND s."stockQuantity" IS DISTINCT FROM 0
      AND NOT EXISTS (SELECT 1 FROM unnest(${s.skuIds}::int[]) AS l(sku) WHERE l.sku = s."upstreamSkuId")`;
  if (opts.copies === "all")
    // The imported SKUs carry the listed figure too (-1 → NULL = unlimited, D13): a SKU sold from its upstream alone shows it.
    await tx.$executeRaw`
      UPDATE "Sku" s SET "stockQuantity" = nullif(v.stock, -1)
      FROM "Product" p, unnest(${c.skuIds}::int[], ${c.stocks}::int[]) AS v(sku, stock)
      WHERE p."id" = s."productId" AND p."upstreamConnectionId" = ${connectionId} AND s."upstreamSkuId" = v.sku
        AND s."deletedAt" IS NULL AND s."stockQuantity" IS DISTINCT FROM nullif(v.stock, -1)`;
  return gone + listed;
}

/** The part of an event newer than the last event applied to our copy of each product; records the new stamps. */
async function newerForCopies(tx: Tx, connectionId: number, s: UpstreamStock): Promise<UpstreamStock> {
  const rows = await tx.$queryRaw<{ product: number }[]>`
    INSERT INTO "UpstreamProductStamp" ("connectionId", "upstreamProductId", "updatedAt")
    SELECT ${connectionId}, e.product, max(e.at AT TIME ZONE 'UTC')
    FROM unnest(${s.productIds}::int[], ${s.productStamps}::timestamptz[]) AS e(product, at)
    WHERE EXISTS (SELECT 1 FROM "Product" p WHERE p."upstreamConnectionId" = ${connectionId} AND p."upstreamProductId" = e.product)
    GROUP BY e.product
    ON CONFLICT ("connectionId", "upstreamProductId") DO UPDATE SET "updatedAt" = EXCLUDED."updatedAt"
      WHERE "UpstreamProductStamp"."updatedAt" < EXCLUDED."updatedAt"
    RETURNING "upstreamProductId" AS product`;
  const newer = new Set(rows.map((r) => r.product));
  const keep = s.skuProducts.map((p) => newer.has(p));
  const pick = <T>(xs: T[]) => xs.filter((_, i) => keep[i]);
  return {
    skuIds: pick(s.skuIds),
    stocks: pick(s.stocks),
    skuProducts: pick(s.skuProducts),
    stamps: pick(s.stamps),
    productIds: s.productIds.filter((p) => newer.has(p)),
    productStamps: s.productStamps.filter((_, i) => newer.has(s.productIds[i])),
  };
}
