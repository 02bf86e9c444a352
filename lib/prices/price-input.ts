import { z } from "zod";
import { formatAmount, PositiveAmountInputSchema } from "../protocol/amount";

// Issue 38 (decision 0094): what an operator may type for a contract price or
// a SKU's quantity tiers, in ONE place for the console and the CLI.

export const SkuCodeSchema = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

export const MAX_TIERS = 20;
const MAX_TIER_QUANTITY = 1_000_000; // an order's largest quantity (order-schemas.ts)

/**
 * "10:9.50,100:9.00": from 10 units on 9.50 each, from 100 on 9.00. Quantities
 * whole, 1 to 1,000,000, strictly ascending (so no duplicate); prices above
 * zero with at most two decimals; at most 20 tiers. Empty text: no tiers.
 */
export const PriceTiersTextSchema = z
  .string()
  .max(2000, "must be at most 2000 characters")
  .transform((text, ctx) => {
    const parts = text.trim() === "" ? [] : text.split(",").map((p) => p.trim());
    if (parts.length > MAX_TIERS) {
      ctx.addIssue({ code: "custom", message: `must have at most ${MAX_TIERS} tiers, not ${parts.length}` });
      return z.NEVER;
    }
    const tiers: { minQuantity: number; priceCents: bigint }[] = [];
    for (const part of parts) {
      const m = /^([0-9]{1,7}):(\S+)$/.exec(part);
      const quantity = m ? Number(m[1]) : NaN;
      const price = m ? PositiveAmountInputSchema.safeParse(m[2]) : null;
      if (!m || !(quantity >= 1 && quantity <= MAX_TIER_QUANTITY) || !price?.success) {
        ctx.addIssue({
          code: "custom",
          message: `"${part.slice(0, 40)}" must be QUANTITY:PRICE, like 10:9.50 (a whole quantity from 1, a positive price with at most two decimals)`,
        });
        return z.NEVER;
      }
      const previous = tiers.at(-1);
      if (previous && quantity <= previous.minQuantity) {
        const why =
          quantity === previous.minQuantity ? `quantity ${quantity} appears twice` : `${quantity} comes after ${previous.minQuantity}`;
        ctx.addIssue({ code: "custom", message: `must list quantities in ascending order: ${why}` });
        return z.NEVER;
      }
      tiers.push({ minQuantity: quantity, priceCents: price.data });
    }
    return tiers;
  });

/** The tiers as typed back: "10:9.50,100:9.00". */
export const tiersText = (tiers: readonly { minQuantity: number; priceCents: bigint }[]) =>
  tiers.map((t) => `${t.minQuantity}:${formatAmount(t.priceCents)}`).join(",");
