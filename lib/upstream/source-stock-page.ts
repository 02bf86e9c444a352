import { z } from "zod";
import type { UpstreamProduct } from "./upstream-client";

// Issue 26.1: one page of an upstream's incremental catalogue sync, as the
// stock refresh reads it (docs/protocol.md#incremental-catalogue-sync). Only
// what stock needs is read, and every figure is checked: an answer with one
// stock that is not -1 (D13: unlimited) or a count up to 2^31-1, not a
// whole number, a SKU listed twice or more items than asked for is refused
// whole, so nothing of it is written.

export const STOCK_PAGE_SIZE = 100;

const Int4Id = z.int().positive().max(2_147_483_647);

const StockSkuSchema = z.object({
  id: Int4Id,
  stock_quantity: z.int().min(-1).max(2_147_483_647),
  is_active: z.boolean(),
});

/** RFC 3339 with a fraction, as our protocol hands it out; anything else is not passed back. */
const SyncTokenSchema = z
  .string()
  .max(40)
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$/);

export const StockPageSchema = z
  .object({
    items: z.array(z.object({ id: Int4Id, is_active: z.boolean(), skus: z.array(StockSkuSchema).max(1000) })).max(STOCK_PAGE_SIZE),
    sync_token: SyncTokenSchema.optional(),
  })
  .refine((p) => uniqueSkus(p.items), "a SKU is listed twice");

function uniqueSkus(items: { skus: { id: number }[] }[]): boolean {
  const ids = items.flatMap((i) => i.skus.map((s) => s.id));
  return new Set(ids).size === ids.length;
}

export type StockPage = z.infer<typeof StockPageSchema>;

/** RFC 3339 in UTC with milliseconds, as a catalogue event's `updated_at` (docs/protocol.md#catalogue-events). */
const UpdatedAtSchema = z.iso.datetime({ precision: 3 });

/** A catalogue event of a Profile U upstream, as the stock needs it; refused whole like a page. */
export const StockEventSchema = z
  .object({
    event: z.literal("catalog.updated"),
    products: z
      .array(z.object({ id: Int4Id, updated_at: UpdatedAtSchema, is_active: z.boolean(), skus: z.array(StockSkuSchema).max(1000) }))
      .min(1)
      .max(500),
  })
  .refine((e) => uniqueSkus(e.products), "a SKU is listed twice");

export type StockEvent = z.infer<typeof StockEventSchema>;

/**
 * What a page or an event says of stock: each listed upstream SKU with its
 * product and the stock it now offers us (its stock_quantity, -1 unlimited,
 * or 0 when it or its product is inactive: not sold), and every listed
 * product, whose SKUs not listed are gone (a tombstone, `skus: []`, lists
 * none). `at`: each product's `updated_at` (events only).
 */
export interface UpstreamStock {
  skuIds: number[];
  stocks: number[];
  skuProducts: number[];
  stamps: string[];
  productIds: number[];
  productStamps: string[];
}

/** A sync page carries no per-product guarantee we rely on (decision 0042, second addendum): no stamps. */
const NO_STAMP = "1970-01-01T00:00:00.000Z";

export function stockOfPage(page: StockPage): UpstreamStock {
  return stockOf(page.items.map((i) => ({ ...i, updated_at: NO_STAMP })));
}

/** The same for a catalogue event, with each product's `updated_at`. */
export function stockOfEvent(event: StockEvent): UpstreamStock {
  return stockOf(event.products);
}

function stockOf(items: { id: number; is_active: boolean; updated_at: string; skus: z.infer<typeof StockSkuSchema>[] }[]): UpstreamStock {
  const out: UpstreamStock = { skuIds: [], stocks: [], skuProducts: [], stamps: [], productIds: [], productStamps: [] };
  for (const item of items) {
    out.productIds.push(item.id);
    out.productStamps.push(item.updated_at);
    for (const s of item.skus) {
      out.skuIds.push(s.id);
      out.stocks.push(item.is_active && s.is_active ? s.stock_quantity : 0);
      out.skuProducts.push(item.id);
      out.stamps.push(item.updated_at);
    }
  }
  return out;
}

/**
 * The same for a whole catalogue as the import read it: its products (inactive ones
 * included) and, as tombstones, the ones it no longer lists. A negative stock is
 * unlimited there (D13), as the import stores it.
 */
export function stockOfImport(products: UpstreamProduct[], goneProductIds: number[]): UpstreamStock {
  const listed = products.map((p) => ({
    id: p.id,
    is_active: p.is_active,
    skus: p.skus.map((s) => ({ id: s.id, is_active: s.is_active, stock_quantity: Math.max(-1, s.stock_quantity) })),
  }));
  return stockOfPage({ items: [...listed, ...goneProductIds.map((id) => ({ id, is_active: false, skus: [] }))] });
}
