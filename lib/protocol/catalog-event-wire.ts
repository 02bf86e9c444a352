import { z } from "zod";
import { INT4_MAX } from "./ids";
import { AmountSchema, SkuSchema } from "./wire-responses";

// Issue 12.2, Profile U extension "catalogue events" (docs/protocol.md,
// Extensions; docs/decisions/0022-catalogue-events.md): the webhook endpoint's
// answer and the catalog.updated event body. Kept beside wire-responses.ts
// (whose SKU fields they reuse) so the extension stays in one file.

const id = z.int().min(1).max(INT4_MAX);

/** The PUT body: the same length limit as an order's callback_url; http(s) and the D29 rules are checked by the service. */
export const CatalogWebhookBodySchema = z.object({
  url: z
    .string()
    .min(1, "must not be empty")
    .max(2048, "must be at most 2048 characters")
    .meta({ description: "http or https; the D29 address rules apply" }),
});

/** GET, PUT and DELETE {U prefix}/catalog-webhook: the key's webhook after the request. */
export const CatalogWebhookSchema = z.object({
  ok: z.literal(true),
  url: z.string().nullable().meta({ description: "The registered URL, or null when none is registered" }),
});

export const CatalogEventSkuSchema = SkuSchema.pick({
  id: true,
  price_amount: true,
  price_tiers: true,
  stock_status: true,
  stock_quantity: true,
  is_active: true,
});

export const CatalogEventProductSchema = z.object({
  id,
  updated_at: z.string().meta({
    description:
      "RFC 3339, UTC, milliseconds: the product's updated_at when the event was built; apply an event's product only when this is newer than what you hold",
  }),
  is_active: z
    .boolean()
    .meta({ description: "false also for a product no longer listed (deleted): a tombstone, price_amount 0.00 and no skus" }),
  price_amount: AmountSchema,
  skus: z.array(CatalogEventSkuSchema),
});

/** The body of a catalogue event (kind catalog.updated), signed like an order callback (D27). */
export const CatalogEventSchema = z.object({
  event: z.literal("catalog.updated"),
  ok: z.literal(true),
  timestamp: z.int(),
  products: z.array(CatalogEventProductSchema).min(1).max(500),
});

export type CatalogWebhookWire = z.infer<typeof CatalogWebhookSchema>;
export type CatalogEventWire = z.infer<typeof CatalogEventSchema>;
export type CatalogEventProductWire = z.infer<typeof CatalogEventProductSchema>;
