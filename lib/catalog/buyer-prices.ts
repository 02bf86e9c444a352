import type { PriceRule } from "../order-read/order-view";

// What one buyer pays, in ONE place for the catalogue answers, the catalogue
// events and the portal (issue 12.4, decision 0021; issue 38, decision 0094).
// An order's unit price is taken inside place_order by the same rule (the
// migration *_contract_prices_and_credit); keep the two in step.
//
// The rule: the SKU's price, or the buyer's member-level price for it when
// there is one; lowered to the buyer's contract price for the SKU and to the
// SKU's tier for the quantity when either is lower. On a tie the earlier of
// level/list, contract, tier names the rule.

export interface PriceBuyer {
  /** The buyer's member level when that level has prices (else null). */
  levelId: number | null;
  /** The buyer when it has contract prices (else null: no contract can apply). */
  userId: string | null;
}

export interface PriceTier {
  minQuantity: number;
  priceCents: bigint;
}

export interface PricedSku {
  priceCents: bigint;
  /** Member level id → that level's price. */
  levelPrices: ReadonlyMap<number, bigint>;
  /** Buyer (user id) → its contract price. */
  contractPrices: ReadonlyMap<string, bigint>;
  /** Ascending by minQuantity. */
  tiers: readonly PriceTier[];
  isActive: boolean;
}

/** The unit price of `quantity` of a SKU for a buyer, and the rule that set it. */
export function unitPriceFor(s: Omit<PricedSku, "isActive">, buyer: PriceBuyer, quantity = 1): { cents: bigint; rule: PriceRule } {
  const level = buyer.levelId !== null ? s.levelPrices.get(buyer.levelId) : undefined;
  let best = level !== undefined ? { cents: level, rule: "level" as PriceRule } : { cents: s.priceCents, rule: "list" as PriceRule };
  const contract = buyer.userId !== null ? s.contractPrices.get(buyer.userId) : undefined;
  if (contract !== undefined && contract < best.cents) best = { cents: contract, rule: "contract" };
  const tier = s.tiers.findLast((t) => t.minQuantity <= quantity);
  if (tier && tier.priceCents < best.cents) best = { cents: tier.priceCents, rule: "tier" };
  return best;
}

/** A SKU's price for one unit, for this buyer. */
export function skuPriceFor(s: Omit<PricedSku, "isActive">, buyer: PriceBuyer): bigint {
  return unitPriceFor(s, buyer, 1).cents;
}

/** A SKU's tiers at this buyer's prices (what `quantity` from each tier's start costs per unit). */
export function priceTiersFor(s: Omit<PricedSku, "isActive">, buyer: PriceBuyer): PriceTier[] {
  return s.tiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: unitPriceFor(s, buyer, t.minQuantity).cents }));
}

/**
 * A product: its own price, unless this buyer pays another price than the
 * list price for one of its SKUs; then the lowest price the buyer pays for one
 * of its SKUs that sell (all SKUs when none sells).
 */
export function productPriceFor(p: { priceCents: bigint; skus: PricedSku[] }, buyer: PriceBuyer): bigint {
  if (!p.skus.some((s) => unitPriceFor(s, buyer).rule !== "list")) return p.priceCents;
  const selling = p.skus.filter((s) => s.isActive);
  return (selling.length ? selling : p.skus).map((s) => skuPriceFor(s, buyer)).reduce((a, b) => (b < a ? b : a));
}
