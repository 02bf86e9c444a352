import { z } from "zod";
import { NonNegativeAmountInputSchema } from "../protocol/amount";
import { Int4IdSchema } from "../protocol/ids";

// Validation only (no database, no logger): the CLI checks its arguments with it before it connects.

/**
 * Issue 37.3: the protocol an upstream speaks, as typed (`--protocol`): ours
 * (`svc`, the default) or Dujiao-Next's docking protocol (`dujiao-next`),
 * stored as the UpstreamProtocol value.
 */
export const UpstreamProtocolInputSchema = z
  // "dujiao_next": the stored value, as the service re-checks what the console's action parsed.
  .enum(["svc", "dujiao-next", "dujiao_next"], 'must be "svc" or "dujiao-next"')
  .default("svc")
  .transform((p) => (p === "svc" ? p : ("dujiao_next" as const)));

/** What an administrator (admin UI, `npm run cli -- upstream:add`) enters. */
const ConnectionFieldsSchema = z.object({
  name: z.string().trim().min(1, "is required").max(100),
  baseUrl: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL" })
    .max(500)
    .transform((u) => u.replace(/\/+$/, "")),
  protocol: UpstreamProtocolInputSchema,
  // Our protocol's profile; a Dujiao-Next supplier speaks its own dialect (derived from Profile U) and takes none.
  profile: z.enum(["U", "P"], "must be U or P").optional(),
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

/** The profile is required for our protocol; a Dujiao-Next connection is stored as U (its callbacks and its callback_url). */
export const UpstreamConnectionInputSchema = ConnectionFieldsSchema.transform((c, ctx) => {
  if (c.protocol === "dujiao_next") return { ...c, profile: "U" as const };
  if (c.profile) return { ...c, profile: c.profile };
  ctx.addIssue({ code: "custom", path: ["profile"], message: "must be U or P" });
  return z.NEVER;
});
export const UpstreamConnectionFields = ConnectionFieldsSchema.shape;
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
