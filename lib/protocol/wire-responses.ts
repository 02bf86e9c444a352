import { z } from "zod";
import { CURRENCY } from "./amount";
import { ERROR_STATUS } from "./errors";
import { PROTOCOL_VERSION, PROVIDER_TYPE } from "./headers";
import type { Profile } from "./profiles";
import { INT4_MAX } from "./ids";

// Response bodies of the supplier interface as zod schemas, per profile
// (sections 2, 4, 6, 7; D1-D5, D10-D16, D19-D21). The one source of the
// success and error shapes: the OpenAPI document is generated from them,
// the HTTP tests check every response against that document, and the
// downstream client parses with them (z.object strips fields a newer server
// adds; the document says additionalProperties: false, so our own server
// cannot add one unnoticed).

/** D3: a string with exactly two decimals, never a JSON number. */
export const AMOUNT_WIRE_PATTERN = /^[0-9]{1,15}\.[0-9]{2}$/;
export const AmountSchema = z
  .string()
  .regex(AMOUNT_WIRE_PATTERN)
  .meta({ description: "Amount, exactly two decimals (D3)", examples: ["12.30"] });

/** A signed amount (a ledger row's change): optional minus, exactly two decimals (D3). */
export const SignedAmountSchema = z
  .string()
  .regex(/^-?[0-9]{1,15}\.[0-9]{2}$/)
  .meta({ description: "Signed amount, exactly two decimals", examples: ["-12.30"] });

const id = z.int().min(1).max(INT4_MAX);
const count = z.int().min(0);

// Issue 38 extensions (decision 0094): the credit line, the rule of an item's price, a SKU's quantity tiers.
const CreditLimitSchema = AmountSchema.meta({ description: "Extension: the buyer's credit line; the balance may go down to minus this" });

const PriceRuleSchema = z
  .enum(["list", "level", "contract", "tier"])
  .meta({ description: "Extension: the rule that set unit_price: list, member level, contract price or quantity tier" });
export const PriceTiersSchema = z
  .array(z.object({ min_quantity: z.int().min(1), price_amount: AmountSchema }))
  .max(20)
  .meta({ description: "Extension: the SKU's quantity tiers at this buyer's prices, ascending; present only when the SKU has tiers" });

/** D5: both keys, always strings. */
export const LanguageTextOutSchema = z
  .object({ "zh-CN": z.string(), en: z.string() })
  .meta({ examples: [{ "zh-CN": "示例", en: "Example" }] });

/**
 * D1 error body. Codes beyond section 7: not_found (unknown path under a
 * prefix) and method_not_allowed (known path, unsupported method).
 */
export type WireErrorCode = keyof typeof ERROR_STATUS | "method_not_allowed";
// A Set: the edge may add method_not_allowed to ERROR_STATUS itself.
export const WIRE_ERROR_CODES: readonly WireErrorCode[] = [
  ...new Set<WireErrorCode>([...(Object.keys(ERROR_STATUS) as WireErrorCode[]), "method_not_allowed"]),
];
export const errorBodySchema = (codes: readonly WireErrorCode[] = WIRE_ERROR_CODES) =>
  z.object({ ok: z.literal(false), error_code: z.enum(codes as [WireErrorCode, ...WireErrorCode[]]), error_message: z.string() });
export const ErrorBodySchema = errorBodySchema();

/** 2.1, D4, D16. */
export const AccountSchema = z.object({
  ok: z.literal(true),
  site_name: z.string(),
  provider_type: z.literal(PROVIDER_TYPE),
  protocol_version: z.literal(PROTOCOL_VERSION),
  instance_id: z.uuid(),
  user_id: z.uuid(),
  balance: SignedAmountSchema.meta({ description: "Negative when the buyer is using its credit line (extension, issue 38)" }),
  credit_limit: CreditLimitSchema.optional(),
  currency: z.literal(CURRENCY),
  member_level: z.object({ id, slug: z.string(), name: LanguageTextOutSchema }),
});

/** 2.2: parent_id 0 is top level. */
export const CategorySchema = z.object({
  id,
  parent_id: z.int().min(0),
  slug: z.string(),
  name: LanguageTextOutSchema,
  sort_order: z.int(),
});
export const CategoriesSchema = z.object({ ok: z.literal(true), categories: z.array(CategorySchema) });

/** 2.4, D13: stock_quantity is -1 exactly when unlimited. */
export const SkuSchema = z.object({
  id,
  sku_code: z.string(),
  spec_values: z.record(z.string(), z.unknown()),
  price_amount: AmountSchema.meta({ description: "This buyer's price for one unit (list, member level, contract or tier, the lowest)" }),
  price_tiers: PriceTiersSchema.optional(),
  stock_status: z.enum(["available", "out_of_stock", "unlimited"]),
  stock_quantity: z.int().min(-1),
  is_active: z.boolean(),
  updated_at: z.iso.datetime().meta({ description: "Extension: when this SKU's fields or stock last changed (RFC 3339, UTC, ms)" }),
});

const productFields = {
  id,
  slug: z.string(),
  title: LanguageTextOutSchema,
  description: LanguageTextOutSchema,
  content: LanguageTextOutSchema,
  price_amount: AmountSchema,
  original_price: AmountSchema,
  fulfillment_type: z.enum(["auto", "manual", "upstream"]),
  is_active: z.boolean(),
  category_id: id,
  delivery_format: z.enum(["text", "account_password", "card_password", "apple_account"]),
  delivery_delimiter: z.string(),
  logo_url: z.string().meta({ description: 'absolute URL, or "" with image exposure off (D15)' }),
  images: z.array(z.string()),
  has_sku: z.boolean(),
  skus: z.array(SkuSchema),
  updated_at: z.iso.datetime().meta({ description: "Extension: when anything in this item last read differently (RFC 3339, UTC, ms)" }),
};

/** 2.3 per profile: manual_form_schema is Profile P only. */
export const ProductSchema = {
  U: z.object(productFields),
  P: z.object({ ...productFields, manual_form_schema: z.object({ fields: z.array(z.unknown()) }).catchall(z.unknown()) }),
} satisfies Record<Profile, z.ZodType>;

/** 4.4: `{ ok, ...Product }`. */
export const ProductDetailSchema = {
  U: z.object({ ok: z.literal(true), ...ProductSchema.U.shape }),
  P: z.object({ ok: z.literal(true), ...ProductSchema.P.shape }),
} satisfies Record<Profile, z.ZodType>;

const page = (profile: Profile) =>
  z.object({
    ok: z.literal(true),
    items: z.array(ProductSchema[profile]),
    total: count,
    page: z.int().min(1),
    page_size: z.int().min(1).max(100),
    includes_inactive: z.boolean(),
    sync_token: z
      .string()
      .optional()
      .meta({ description: "Extension, with updated_after only: pass as updated_after (page 1) to continue after this page" }),
  });
/** 4.3, D10. */
export const ProductPageSchema = { U: page("U"), P: page("P") } satisfies Record<Profile, z.ZodType>;

export const OrderStatusSchema = z.enum(["processing", "delivered", "failed"]);

/** D21. */
const fulfillment = (types: readonly [string, ...string[]]) =>
  z.object({ type: z.enum(types), status: z.literal("delivered"), payload: z.string(), delivery_data: z.array(z.string()) });
export const FulfillmentSchema = { U: fulfillment(["card_key"]), P: fulfillment(["card_key", "apple_account", "provider_delivery"]) };

const itemFields = {
  product_id: id,
  sku_id: id,
  quantity: z.int().min(1),
  unit_price: AmountSchema,
  total_price: AmountSchema,
  // Optional in the schema: our own client reads suppliers that predate it; our server always sends it.
  price_rule: PriceRuleSchema.optional(),
};
const titledItem = z.object({
  product_id: id,
  sku_id: id,
  title: LanguageTextOutSchema,
  quantity: itemFields.quantity,
  unit_price: AmountSchema,
  total_price: AmountSchema,
  price_rule: PriceRuleSchema.optional(),
});

const orderHead = {
  ok: z.literal(true),
  order_id: id,
  order_no: z.string(),
  downstream_order_no: z.string(),
  amount: AmountSchema,
  currency: z.literal(CURRENCY),
  trace_id: z.string(),
  refunded_amount: AmountSchema.optional().meta({
    description: "Extension (after-sales): the sum of partial refunds, present once one was made",
  }),
};

/** 2.5, D19: P always answers processing, error_message null, titled items; U may already be delivered. */
export const OrderCreatedSchema = {
  U: z.object({ ...orderHead, status: OrderStatusSchema, items: z.array(titledItem), fulfillment: FulfillmentSchema.U.optional() }),
  P: z.object({ ...orderHead, status: z.literal("processing"), error_message: z.null(), items: z.array(titledItem) }),
} satisfies Record<Profile, z.ZodType>;

/** 2.5, D20: P items omit title and carry error_message. */
export const OrderReadSchema = {
  U: OrderCreatedSchema.U,
  P: z.object({
    ...orderHead,
    status: OrderStatusSchema,
    error_message: z.string().nullable(),
    items: z.array(z.object(itemFields)),
    fulfillment: FulfillmentSchema.P.optional(),
  }),
} satisfies Record<Profile, z.ZodType>;

/** Section 6: the body of a Profile U callback (kind order.updated). */
export const OrderCallbackSchema = z.object({
  event: z.literal("order.updated"),
  ok: z.literal(true),
  order_id: id,
  order_no: z.string(),
  downstream_order_no: z.string(),
  status: OrderStatusSchema,
  amount: AmountSchema,
  currency: z.literal(CURRENCY),
  refunded_amount: AmountSchema.optional(),
  timestamp: z.int(),
  fulfillment: FulfillmentSchema.U.optional(),
});

/** Extension, docs/decisions/0019-balance-statement.md: one points ledger row. Same in both profiles. */
export const StatementItemSchema = z.object({
  id: z.int().min(1),
  created_at: z.iso.datetime({ precision: 3 }).meta({ description: "RFC 3339, UTC, milliseconds" }),
  type: z.enum(["order", "refund", "topup", "adjustment"]).meta({ description: "topup: a payment through a gateway (issue 36)" }),
  amount: SignedAmountSchema,
  balance_after: SignedAmountSchema,
  unit_price: AmountSchema.nullish().meta({ description: "Extension: the order's unit price on an order row; null otherwise" }),
  price_rule: PriceRuleSchema.nullish().meta({ description: "Extension: the rule that set it on an order row; null otherwise" }),
  order_id: id.nullable().meta({ description: "the order's order_id (as in the order endpoints); null for an adjustment" }),
  order_no: z.string().nullable(),
  payment_no: z.string().nullable().meta({ description: "the payment's number on a topup row; null otherwise" }),
  note: z.string(),
});
/** The amounts of all rows (every page) add up to balance. */
export const StatementSchema = z.object({
  ok: z.literal(true),
  balance: SignedAmountSchema,
  credit_limit: CreditLimitSchema.optional(),
  items: z.array(StatementItemSchema),
  total: count,
  page: z.int().min(1),
  page_size: z.int().min(1).max(100),
});

export type Account = z.infer<typeof AccountSchema>;
export type Category = z.infer<typeof CategorySchema>;
export type OrderCallback = z.infer<typeof OrderCallbackSchema>;
export type StatementWire = z.infer<typeof StatementSchema>;
