// What a fulfiller token and its script may send (issue 39, decision 0093):
// checked by the services, the API route, the CLI and the console before
// anything is written. Free of database imports so the CLI can check its
// arguments without loading the services.
import { z } from "zod";
import { FailReasonSchema, OrderNoSchema } from "../fulfillment/manual-input";

export { OrderNoSchema };

/** A lease is 5 s to an hour: long enough for one delivery, short enough that a dead worker's orders come back. */
export const LEASE_SECONDS = { min: 5, max: 3600, default: 300 } as const;
/** The console's payload limit is a million characters; a line is one delivery_data entry (D21). */
export const MAX_LINES = 10_000;
const MAX_LINE_CHARS = 4096;

export const TokenNameSchema = z
  .string()
  .trim()
  .min(1, "is required")
  .max(64, "must be at most 64 characters")
  .regex(/^[\p{L}\p{N} ._-]+$/u, "may hold letters, digits, spaces, dots, dashes and underscores");

export const FulfillerTokenInputSchema = z.strictObject({
  name: TokenNameSchema,
  /** Manual products the token may see; empty = every manual product. */
  productIds: z.array(z.int().positive().max(2_147_483_647)).max(1000).default([]),
  webhookUrl: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL" })
    .max(2048)
    .optional(),
});
export type FulfillerTokenInput = z.input<typeof FulfillerTokenInputSchema>;

export const TokenIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

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

/** An Idempotency-Key: 1 to 200 visible ASCII characters. */
export const IdempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,200}$/, "Idempotency-Key must be 1 to 200 visible ASCII characters");
