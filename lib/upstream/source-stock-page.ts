import { z } from "zod";

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
  .refine((p) => {
    const ids = p.items.flatMap((i) => i.skus.map((s) => s.id));
    return new Set(ids).size === ids.length;
  }, "a SKU is listed twice");

export type StockPage = z.infer<typeof StockPageSchema>;

/**
 * The stock each listed upstream SKU now offers us: its stock_quantity
 * (-1 unlimited), or 0 when it or its product is inactive (not sold).
 * A tombstone (`skus: []`) names no SKU: an order refused there records 0.
 */
export function stockOfPage(page: StockPage): { skuIds: number[]; stocks: number[] } {
  const skuIds: number[] = [];
  const stocks: number[] = [];
  for (const item of page.items)
    for (const s of item.skus) {
      skuIds.push(s.id);
      stocks.push(item.is_active && s.is_active ? s.stock_quantity : 0);
    }
  return { skuIds, stocks };
}
