// What a fulfiller token and its script may send (issue 39, decision 0093):
// checked by the services, the API route, the CLI and the console before
// anything is written. Free of database imports so the CLI can check its
// arguments without loading the services.
import { z } from "zod";
import { OrderNoSchema } from "../fulfillment/manual-input";

// The request bodies are the wire contract's (lib/protocol/fulfiller-wire.ts, also in the OpenAPI document).
export { ClaimBodySchema, DeliverBodySchema, FailBodySchema, LEASE_SECONDS, ListQuerySchema, MAX_LINES } from "../protocol/fulfiller-wire";
export { OrderNoSchema };

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

/** An Idempotency-Key: 1 to 200 visible ASCII characters. */
export const IdempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,200}$/, "Idempotency-Key must be 1 to 200 visible ASCII characters");
