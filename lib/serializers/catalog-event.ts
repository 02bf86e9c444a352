import type { PriceTier } from "../catalog/buyer-prices";
import { formatAmount } from "../protocol/amount";
import type { CatalogEventProductWire, CatalogEventWire } from "../protocol/catalog-event-wire";
import { skuStock } from "./catalog";

// Issue 12.2: the body of a catalog.updated event (docs/protocol.md,
// "Catalogue events"). Prices are already the ones the key's user sees
// (lib/catalog/buyer-prices.ts); stock follows D13 through the
// catalogue's own SKU serializer, so an event and the product list agree.

export interface EventProduct {
  id: number;
  /** ProductStamp.updatedAt in microseconds since the epoch. */
  updatedAtMicros: bigint;
  /** Listed for downstreams (D11): neither it nor its category deleted. */
  listed: boolean;
  isActive: boolean;
  priceCents: bigint;
  /** `tiers`: issue 38, at the key's user's prices; empty when the SKU has none. */
  skus: { id: number; priceCents: bigint; isActive: boolean; stock: number | null; tiers: PriceTier[] }[];
}

type EventSkuWire = CatalogEventProductWire["skus"][number];

function eventSkuWire(s: EventProduct["skus"][number]): EventSkuWire {
  const tiers = s.tiers.length
    ? { price_tiers: s.tiers.map((t) => ({ min_quantity: t.minQuantity, price_amount: formatAmount(t.priceCents) })) }
    : {};
  return { id: s.id, price_amount: formatAmount(s.priceCents), ...tiers, ...skuStock(s.stock), is_active: s.isActive };
}

/** A product no longer listed is reported once, as the tombstone lib/catalog-events/load-event-products.ts made of it (issue 22.5). */
export function eventProductWire(p: EventProduct): CatalogEventProductWire {
  return {
    id: p.id,
    // Milliseconds, truncated like every updated_at on the wire.
    updated_at: new Date(Number(p.updatedAtMicros / 1000n)).toISOString(),
    is_active: p.listed && p.isActive,
    price_amount: formatAmount(p.priceCents),
    skus: p.skus.map(eventSkuWire),
  };
}

export function catalogEventWire(products: EventProduct[], now = Date.now()): CatalogEventWire {
  return { event: "catalog.updated", ok: true, timestamp: Math.floor(now / 1000), products: products.map(eventProductWire) };
}
