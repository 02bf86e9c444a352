import { priceTiersFor, productPriceFor, skuPriceFor, type PriceBuyer, type PriceTier } from "../catalog/buyer-prices";
import { loadCatalog } from "../catalog/load-catalog";
import type { DeliveryFormat } from "../generated/prisma/enums";
import type { LanguageText } from "../protocol/language";
import { db } from "../db/client";
import { accountPendingError } from "../buyer-access/approved-buyer";

// Issue 24.2: the price list a buyer sees, by the catalogue API's rules: the
// same snapshot (loadCatalog), the same listing rule (active and listed, D11),
// the same prices (buyer-prices.ts, decisions 0021 and 0094), the same stock
// (D13: null = unlimited). No images: nothing here can expose one (D15).

export interface PriceListRow {
  productId: number;
  productTitle: LanguageText;
  categoryId: number;
  categoryName: LanguageText | null;
  deliveryFormat: DeliveryFormat;
  skuId: number;
  skuCode: string;
  specValues: Record<string, unknown>;
  priceCents: bigint;
  productPriceCents: bigint;
  /** Issue 38: the SKU's quantity tiers at this buyer's prices (empty: none). */
  tiers: PriceTier[];
  stock: number | null;
}

export type StockBand = "unlimited" | "available" | "out_of_stock";
/** D13's bands, as the API's stock_status. */
export const stockBand = (stock: number | null): StockBand => (stock === null ? "unlimited" : stock > 0 ? "available" : "out_of_stock");

export async function getPriceList({ userId, q, categoryId }: { userId: string; q?: string; categoryId?: number }) {
  const [user, catalog] = await Promise.all([
    db().user.findUniqueOrThrow({ where: { id: userId }, select: { memberLevelId: true, registrationPending: true } }),
    loadCatalog(null),
  ]);
  if (user.registrationPending) throw accountPendingError(); // issue 33.3: prices and exact stock are for approved buyers
  // As catalog-cache.ts: a level without any SKU price pays the list prices.
  const buyer: PriceBuyer = { levelId: catalog.pricedLevels.includes(user.memberLevelId) ? user.memberLevelId : null, userId };
  const categories = new Map(catalog.categories.map((c) => [c.id, c]));
  const needle = q?.trim().toLowerCase().slice(0, 100) ?? "";
  const rows: PriceListRow[] = [];
  const products = catalog.products.filter((p) => p.isActive && p.listed).sort((a, b) => a.categorySort - b.categorySort || a.id - b.id);
  for (const p of products) {
    if (categoryId !== undefined && p.categoryId !== categoryId) continue;
    const text = `${p.title.en} ${p.title["zh-CN"]} ${p.slug}`.toLowerCase();
    for (const s of p.skus) {
      if (!s.isActive) continue;
      if (needle && !text.includes(needle) && !s.skuCode.toLowerCase().includes(needle)) continue;
      rows.push({
        productId: p.id,
        productTitle: p.title,
        categoryId: p.categoryId,
        categoryName: categories.get(p.categoryId)?.name ?? null,
        deliveryFormat: p.deliveryFormat,
        skuId: s.id,
        skuCode: s.skuCode,
        specValues: s.specValues,
        priceCents: skuPriceFor(s, buyer),
        productPriceCents: productPriceFor(p, buyer),
        tiers: priceTiersFor(s, buyer),
        stock: s.stock,
      });
    }
  }
  return { rows, categories: catalog.categories };
}
