import type { CatalogProduct, CatalogSku } from "../catalog/load-catalog";
import { skuPriceFor, type PriceBuyer } from "../catalog/buyer-prices";
import { catalogState } from "../catalog-read/catalog-snapshot";
import { db } from "../db/client";
import type { LanguageText } from "../protocol/language";

// Issue 37.2: what an ACG-Faka shop may import and buy. One item per SKU
// (ACG-Faka's item has no variants of ours to choose from; its `code` is the
// SKU's id), and only SKUs delivered at once from our own card keys: their
// `trade` must hand the keys back in the same answer (their 30 s timeout,
// Bind/Shared.php line 82), so a SKU that may buy from an upstream (decision
// 0042) or is delivered by hand is not offered. Read from the in-process
// catalogue the supplier API serves (lib/catalog-read), so stock and prices
// are the same figures, at the buyer's prices (decisions 0021, 0094).

export interface AcgItem {
  skuId: number;
  categoryId: number;
  categoryName: string;
  name: string;
  description: string;
  /** What this buyer pays for one, in fen. */
  unitPriceCents: bigint;
  /** Available card keys. */
  stock: number;
}

/** The key's buyer, whose prices the items show. */
export interface AcgBuyer {
  memberLevelId: number;
  userId: string;
}

/** Every offered SKU, in the catalogue's list order (category sort, product id, SKU sort). */
export async function listAcgItems(who: AcgBuyer): Promise<AcgItem[]> {
  const buyer: PriceBuyer = { levelId: who.memberLevelId, userId: who.userId };
  const [state, keyOnly] = await Promise.all([catalogState(), keyOnlySkuIds()]);
  const categoryName = new Map(state.categories.map((c) => [c.id, zh(c.name)]));
  const items: AcgItem[] = [];
  for (const productId of state.listedActive) {
    const p = state.products.get(productId)!;
    const selling = p.skus.filter((s) => s.isActive && keyOnly.has(s.id));
    for (const s of selling) items.push(itemOf(p, s, p.skus.length > 1, categoryName.get(p.categoryId) ?? "", buyer));
  }
  return items;
}

/** One offered SKU by its `code` (the SKU id as text), or null when it is not offered to this buyer. */
export async function findAcgItem(code: string, who: AcgBuyer): Promise<AcgItem | null> {
  if (!/^[1-9][0-9]{0,9}$/.test(code)) return null;
  return (await listAcgItems(who)).find((i) => i.skuId === Number(code)) ?? null;
}

function itemOf(p: CatalogProduct, s: CatalogSku, manySkus: boolean, categoryName: string, buyer: PriceBuyer): AcgItem {
  const spec = Object.values(s.specValues).map(String).join(" / ");
  return {
    skuId: s.id,
    categoryId: p.categoryId,
    categoryName,
    name: manySkus && spec ? `${zh(p.title)} - ${spec}` : zh(p.title),
    description: zh(p.description),
    unitPriceCents: skuPriceFor(s, buyer),
    stock: s.stock ?? 0,
  };
}

/** ACG-Faka shops are Chinese-language shops: the zh-CN text, else the English. */
const zh = (t: LanguageText) => t["zh-CN"] || t.en;

/**
 * SKUs whose only source is our card keys: the same rule as createOrder's
 * takesKeys and buysUpstream (lib/orders/order-context.ts), for every SKU.
 */
async function keyOnlySkuIds(): Promise<Set<number>> {
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT s."id" FROM "Sku" s
    JOIN "Product" p ON p."id" = s."productId"
    LEFT JOIN "SkuSourceList" l ON l."skuId" = s."id"
    WHERE s."deletedAt" IS NULL AND CASE
      WHEN l."skuId" IS NULL THEN p."fulfillmentType" = 'auto'
      ELSE EXISTS (SELECT 1 FROM "SkuSource" x WHERE x."skuId" = s."id" AND x."kind" = 'local' AND x."isEnabled")
       AND NOT EXISTS (SELECT 1 FROM "SkuSource" x WHERE x."skuId" = s."id" AND x."kind" = 'upstream' AND x."isEnabled") END`;
  return new Set(rows.map((r) => r.id));
}
