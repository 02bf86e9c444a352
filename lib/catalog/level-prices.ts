// Issue 12.4, docs/decisions/0021-member-level-prices.md: what a member level
// pays, in ONE place for the catalogue answers and the catalogue events. (An
// order's amount is taken inside place_order by the same SKU rule.)

interface PricedSku {
  priceCents: bigint;
  /** Member level id → that level's price. */
  levelPrices: ReadonlyMap<number, bigint>;
  isActive: boolean;
}

/** A SKU: the level's price when one is set, else the SKU's (null level: the SKU's). */
export function skuPriceFor(s: Omit<PricedSku, "isActive">, levelId: number | null): bigint {
  return (levelId !== null ? s.levelPrices.get(levelId) : undefined) ?? s.priceCents;
}

/**
 * A product: its own price, unless one of its SKUs has a price for the level;
 * then the lowest price the level pays for one of its SKUs that sell (all
 * SKUs when none sells).
 */
export function productPriceFor(p: { priceCents: bigint; skus: PricedSku[] }, levelId: number | null): bigint {
  if (levelId === null || !p.skus.some((s) => s.levelPrices.has(levelId))) return p.priceCents;
  const selling = p.skus.filter((s) => s.isActive);
  return (selling.length ? selling : p.skus).map((s) => skuPriceFor(s, levelId)).reduce((a, b) => (b < a ? b : a));
}
