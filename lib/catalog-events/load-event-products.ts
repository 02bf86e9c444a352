import type { Tx } from "../db/tx";
import { MICROS } from "../catalog/stamp-catalog";
import { LISTED_PRODUCT_SQL } from "../catalog/product-listed";
import type { EventProduct } from "../serializers/catalog-event";
import { priceTiersFor, productPriceFor, skuPriceFor, type PriceBuyer, type PricedSku } from "../catalog/buyer-prices";

type PricedSkuOf = Pick<PricedSku, "levelPrices" | "contractPrices" | "tiers">;

export interface StampedEventProduct extends EventProduct {
  /** ProductStamp.notifiedAt as PostgreSQL text (exact microseconds; a cursor). */
  notifiedAt: string;
}

/**
 * Issue 12.2: the products whose reportable state changed after `after` (a
 * timestamp(6) as text), in stamp order, at most `limit`, as a key of member
 * level `levelId` sees them. Runs in the builder's REPEATABLE READ
 * transaction, so products, SKUs, stock and the clock are one snapshot.
 * Issue 38: at the contract prices of the key's user `userId` and the SKUs' tiers.
 * Cursors travel as text: a JavaScript Date would drop the microseconds that
 * keep stamps unique.
 */
export async function loadEventProducts(
  tx: Tx,
  q: { after: string; limit: number; levelId: number; userId: string },
): Promise<StampedEventProduct[]> {
  const products = await tx.$queryRaw<
    { id: number; updatedAt: bigint; notifiedAt: string; listed: boolean; isActive: boolean; priceCents: bigint }[]
  >`
    SELECT p."id", ${MICROS('ps."updatedAt"')} AS "updatedAt", ps."notifiedAt"::text AS "notifiedAt",
           ${LISTED_PRODUCT_SQL} AS listed, p."isActive", p."priceCents"
    FROM "ProductStamp" ps
    JOIN "Product" p ON p."id" = ps."productId"
    LEFT JOIN "Category" c ON c."id" = p."categoryId"
    WHERE ps."notifiedAt" > ${q.after}::timestamp(6)
    ORDER BY ps."notifiedAt", ps."productId"
    LIMIT ${q.limit}`;
  if (!products.length) return [];
  // D13: auto stock is the available card keys the stamps counted; others keep a number (NULL = unlimited); issue 26.1: plus the SKU's upstream sources (sku_visible_stock).
  const skus = await tx.$queryRaw<
    {
      id: number;
      productId: number;
      isActive: boolean;
      priceCents: bigint;
      levelPriceCents: bigint | null;
      contractPriceCents: bigint | null;
      tiers: [number, string][];
      stock: number | null;
    }[]
  >`
    SELECT s."id", s."productId", s."isActive", s."priceCents", lp."priceCents" AS "levelPriceCents", cp."priceCents" AS "contractPriceCents",
           (SELECT coalesce(json_agg(json_build_array(pt."minQuantity", pt."priceCents"::text) ORDER BY pt."minQuantity"), '[]')
            FROM "SkuPriceTier" pt WHERE pt."skuId" = s."id") AS tiers,
           sku_visible_stock(s."id", p."fulfillmentType" = 'auto', st."availableKeys", s."stockQuantity") AS stock
    FROM "Sku" s
    JOIN "Product" p ON p."id" = s."productId"
    LEFT JOIN "SkuStamp" st ON st."skuId" = s."id"
    LEFT JOIN "SkuLevelPrice" lp ON lp."skuId" = s."id" AND lp."levelId" = ${q.levelId}
    LEFT JOIN "ContractPrice" cp ON cp."skuId" = s."id" AND cp."userId" = ${q.userId}::uuid
    WHERE s."productId" = ANY (${products.filter((p) => p.listed).map((p) => p.id)}::int[]) AND s."deletedAt" IS NULL
    ORDER BY s."sortOrder", s."id"`;
  const buyer: PriceBuyer = { levelId: q.levelId, userId: q.userId };
  const byProduct = new Map<number, (Omit<(typeof skus)[number], "tiers"> & PricedSkuOf)[]>();
  for (const s of skus) {
    const list = byProduct.get(s.productId) ?? [];
    list.push({
      ...s,
      levelPrices: new Map(s.levelPriceCents === null ? [] : [[q.levelId, s.levelPriceCents]]),
      contractPrices: new Map(s.contractPriceCents === null ? [] : [[q.userId, s.contractPriceCents]]),
      tiers: s.tiers.map(([minQuantity, cents]) => ({ minQuantity, priceCents: BigInt(cents) })),
    });
    byProduct.set(s.productId, list);
  }
  return products.map((p) => {
    // Issue 22.5: a product no longer listed goes out as a tombstone (lib/catalog/load-catalog.ts, tombstoneUnlisted): no price, no SKUs.
    if (!p.listed)
      return { id: p.id, updatedAtMicros: p.updatedAt, notifiedAt: p.notifiedAt, listed: false, isActive: false, priceCents: 0n, skus: [] };
    const priced = byProduct.get(p.id) ?? [];
    return {
      id: p.id,
      updatedAtMicros: p.updatedAt,
      notifiedAt: p.notifiedAt,
      listed: p.listed,
      isActive: p.isActive,
      priceCents: productPriceFor({ priceCents: p.priceCents, skus: priced }, buyer),
      skus: priced.map((s) => ({
        id: s.id,
        isActive: s.isActive,
        stock: s.stock,
        priceCents: skuPriceFor(s, buyer),
        tiers: s.tiers.length ? priceTiersFor(s, buyer) : [],
      })),
    };
  });
}
