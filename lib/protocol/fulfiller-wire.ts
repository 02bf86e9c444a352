// The fulfiller API's wire shapes (issue 39, decision 0093): the request
// bodies the routes validate with and the answers they give, from which the
// OpenAPI document's fulfiller paths are made (openapi/fulfiller-paths.ts).
import { z } from "zod";
import { FailReasonSchema } from "../fulfillment/manual-input";

/** A lease is 5 s to an hour: long enough for one delivery, short enough that a dead worker's orders come back. */
export const LEASE_SECONDS = { min: 5, max: 3600, default: 300 } as const;
/** The console's payload limit is a million characters; a line is one delivery_data entry (D21). */
export const MAX_LINES = 10_000;
const MAX_LINE_CHARS = 4096;

export const ListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const ClaimBodySchema = z.strictObject({
  lease_seconds: z.int().min(LEASE_SECONDS.min).max(LEASE_SECONDS.max).default(LEASE_SECONDS.default),
});

// A line holding a line break would become two lines by the console's rule (payloadLines): refused instead.
const LineSchema = z
  .string()
  .min(1, "is empty")
  .max(MAX_LINE_CHARS, `must be at most ${MAX_LINE_CHARS} characters`)
  .refine((l) => !/[\r\n]/.test(l) && l.trim().length > 0, "must be one non-blank line");

export const DeliverBodySchema = z.strictObject({
  lines: z.array(LineSchema).min(1, "must hold at least one line").max(MAX_LINES, `must hold at most ${MAX_LINES} lines`),
});

export const FailBodySchema = z.strictObject({ reason: FailReasonSchema });

export const WaitingOrdersSchema = z.object({
  items: z.array(
    z.object({
      order_no: z.string(),
      order_id: z.int(),
      product_id: z.int(),
      sku_id: z.int(),
      quantity: z.int(),
      form: z.record(z.string(), z.unknown()).describe("The buyer's manual form, for this caller only (each read audited)"),
      created_at: z.string(),
      lease_until: z.string().nullable().describe("This token's live lease on the order, if any"),
    }),
  ),
});
export const ClaimAnswerSchema = z.object({ order_no: z.string(), lease_until: z.string() });
export const DeliverAnswerSchema = z.object({ order_no: z.string(), status: z.literal("delivered"), lines: z.int() });
export const FailAnswerSchema = z.object({ order_no: z.string(), status: z.literal("failed"), reason: z.string() });
export const OrderWaitingEventSchema = z.object({
  event: z.literal("order.waiting"),
  order_no: z.string(),
  order_id: z.int(),
  product_id: z.int(),
  sku_id: z.int(),
  quantity: z.int(),
  created_at: z.string(),
});
