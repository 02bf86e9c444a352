import { z } from "zod";
import { PositiveAmountInputSchema } from "./amount";
import type { Profile } from "./profiles";

// Request bodies of the order endpoints (spec 4.5, 4.7, D17, D23).
// Profile P is strict: unknown top-level fields, callback_url included, are
// 400 bad_request. Profile U ignores unknown top-level fields.

const downstreamOrderNo = z.string().min(1, "must not be empty").max(128, "must be at most 128 characters");
const skuId = z.int("must be an integer").positive("must be a positive integer");
const quantity = z.int("must be an integer").min(1, "must be at least 1").max(1_000_000, "must be at most 1000000");
const traceId = z.string().max(128, "must be at most 128 characters");
const formData = z.record(z.string(), z.unknown(), "must be an object");
/** Extension (issue 38, decision 0094): refuse the order (409 max_total_exceeded) when its total would be above this. */
const maxTotal = PositiveAmountInputSchema.meta({
  description: "Extension: the most this order may cost; above it the order is refused with 409 max_total_exceeded and nothing is debited",
  examples: ["95.00"],
});

export const CreateOrderBodySchema = {
  P: z.strictObject({
    downstream_order_no: downstreamOrderNo,
    sku_id: skuId,
    quantity,
    trace_id: traceId.optional(),
    manual_form_data: formData.optional(),
    max_total: maxTotal.optional(),
  }),
  U: z.object({
    downstream_order_no: downstreamOrderNo,
    sku_id: skuId,
    quantity,
    trace_id: traceId.nullish(),
    // An empty string means "no callback" (some shops send the field always).
    callback_url: z
      .string()
      .max(2048, "must be at most 2048 characters")
      .nullish()
      .transform((v) => (v ? v : null)),
    manual_form_data: formData.nullish(),
    max_total: maxTotal.nullish(),
  }),
} satisfies Record<Profile, z.ZodType>;

/**
 * Dujiao-Next's create (decision 0090): Profile U's fields, with their limit of
 * 64 characters on the order number and the trace id (their columns' size).
 */
export const DujiaoCreateOrderBodySchema = CreateOrderBodySchema.U.extend({
  downstream_order_no: downstreamOrderNo.max(64, "must be at most 64 characters"),
  trace_id: traceId.max(64, "must be at most 64 characters").nullish(),
});
export type DujiaoCreateOrderBody = z.infer<typeof DujiaoCreateOrderBodySchema>;

export type CreateOrderBodyP = z.infer<typeof CreateOrderBodySchema.P>;
export type CreateOrderBodyU = z.infer<typeof CreateOrderBodySchema.U>;

/**
 * D23: Profile P accepts an empty body or {} only. Profile U has no schema:
 * it ignores the body entirely, JSON or not (issue 8.7).
 */
export const CancelOrderBodySchema = {
  P: z.strictObject({}),
} satisfies Partial<Record<Profile, z.ZodType>>;
