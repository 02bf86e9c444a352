import { z } from "zod";
import { NonNegativeAmountInputSchema } from "../protocol/amount";
import { Int4IdSchema } from "../protocol/ids";

// Validation only (no database, no logger): the CLI checks its arguments with it before it connects.

/** What an administrator (admin UI, `npm run cli -- upstream:add`) enters. */
export const UpstreamConnectionInputSchema = z.object({
  name: z.string().trim().min(1, "is required").max(100),
  baseUrl: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL" })
    .max(500)
    .transform((u) => u.replace(/\/+$/, "")),
  profile: z.enum(["U", "P"], "must be U or P"),
  apiKey: z.string().trim().min(1, "is required").max(200),
  apiSecret: z.string().min(1, "is required").max(500),
  // D25: 30 minutes by default, settable per connection.
  maxWaitSeconds: z.coerce
    .number()
    .int("must be an integer")
    .min(1)
    .max(30 * 24 * 3600)
    .default(1800),
});
export type UpstreamConnectionInput = z.input<typeof UpstreamConnectionInputSchema>;

/** --markup-percent: a percentage with at most two decimals. */
export const MarkupPercentSchema = z
  .string()
  .trim()
  .regex(/^\d{1,4}(\.\d{1,2})?$/, "must be a percentage like 10 or 12.5");

/**
 * Issue 22.1: the most an upstream may charge per unit of a SKU: an amount
 * ("12.50"), or empty / "default" for the default (the price the buyer paid).
 */
export const UpstreamMaxCostSchema = z.object({
  skuId: Int4IdSchema,
  maxCost: z
    .union([z.literal("").transform(() => null), z.literal("default").transform(() => null), NonNegativeAmountInputSchema], {
      error: "must be an amount of at least 0.00 like 12.50, or empty / default for the price the buyer paid",
    })
    .nullable(),
});
