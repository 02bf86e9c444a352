import { z } from "zod";
import { PROFILE_PREFIXES } from "./profiles";
import { signRequest } from "./signing";

// Dujiao-Next's "site docking" protocol, as its own Go source has it
// (docs/peers/dujiao-next-docking.md; decision 0090). Shared by our server's
// Dujiao-Next dialect of Profile U's primary prefix, our client of Dujiao-Next
// suppliers (lib/upstream) and the tests' peer clients. The signature is our
// own section 5 rule (signing.ts) under other header names.

export const DUJIAO_HEADER_API_KEY = "Dujiao-Next-Api-Key";
export const DUJIAO_HEADER_TIMESTAMP = "Dujiao-Next-Timestamp";
export const DUJIAO_HEADER_SIGNATURE = "Dujiao-Next-Signature";
/** internal/upstream/signer.go MaxTimestampSkew. */
export const DUJIAO_TIMESTAMP_WINDOW_SECONDS = 60;
/** Their callback sender signs this literal path, whatever the callback URL is. */
export const DUJIAO_CALLBACK_SIGNED_PATH = `${PROFILE_PREFIXES.U[0]}/callback`;
/** Every path of theirs starts with Profile U's primary prefix (ours was derived from theirs), whatever the connection's base URL. */
export const DUJIAO_PREFIX = PROFILE_PREFIXES.U[0];
/** Their ListProducts: a page_size below 1 or above 50 becomes 50. */
export const DUJIAO_MAX_PAGE_SIZE = 50;
/** Their order states (internal/constants/constants.go). */
export const DUJIAO_ORDER_STATES = [
  "pending_payment",
  "paid",
  "fulfilling",
  "partially_delivered",
  "partially_refunded",
  "delivered",
  "completed",
  "canceled",
  "refunded",
] as const;
export type DujiaoOrderState = (typeof DUJIAO_ORDER_STATES)[number];

// How Go's encoding/json decodes into their structs: a field of the wrong
// JSON type fails the whole answer; a missing field or a null leaves the zero
// value; unknown fields are ignored. `uint` refuses a negative or fractional
// number; `time.Time` takes an RFC 3339 string only; `models.JSON` is a
// map[string]interface{} (an object: an array or a string fails).
const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();
export const goUint = opt(z.int().min(0));
export const goInt = opt(z.int());
export const goString = opt(z.string());
export const goBool = opt(z.boolean());
export const goMap = opt(z.record(z.string(), z.unknown()));
export const goStrings = opt(z.array(z.string()));
export const goTime = opt(z.iso.datetime({ offset: true }));

/** adapter.go PingResult (+ the `ok` the adapter checks). */
export const DujiaoPingSchema = z.object({
  ok: goBool,
  site_name: goString,
  protocol_version: goString,
  user_id: goUint,
  balance: goString,
  currency: goString,
  member_level: goMap,
});

export const DujiaoCategorySchema = z.object({
  id: goUint,
  parent_id: goUint,
  slug: goString,
  name: goMap,
  icon: goString,
  sort_order: goInt,
});
export const DujiaoCategoriesSchema = z.object({ ok: goBool, categories: opt(z.array(DujiaoCategorySchema)) });

export const DujiaoSkuSchema = z.object({
  id: goUint,
  sku_code: goString,
  spec_values: goMap,
  price_amount: goString,
  original_price: goString,
  member_price: goString,
  stock_status: goString,
  /** −1 = unlimited. */
  stock_quantity: goInt,
  is_active: goBool,
});

export const DujiaoProductSchema = z.object({
  id: goUint,
  seo_meta: goMap,
  title: goMap,
  description: goMap,
  content: goMap,
  images: goStrings,
  tags: goStrings,
  price_amount: goString,
  original_price: goString,
  member_price: goString,
  currency: goString,
  fulfillment_type: goString,
  manual_form_schema: goMap,
  is_active: goBool,
  category_id: goUint,
  skus: opt(z.array(DujiaoSkuSchema)),
  updated_at: goTime,
});
export type DujiaoProduct = z.infer<typeof DujiaoProductSchema>;

/** adapter.go ProductListResult. */
export const DujiaoProductPageSchema = z.object({ total: goInt, items: opt(z.array(DujiaoProductSchema)) });
/** GetProduct: the product is wrapped. */
export const DujiaoProductDetailSchema = z.object({ ok: goBool, product: opt(DujiaoProductSchema) });

export const DujiaoCreateOrderAnswerSchema = z.object({
  ok: goBool,
  order_id: goUint,
  order_no: goString,
  status: goString,
  amount: goString,
  currency: goString,
  error_code: goString,
  error_message: goString,
});

export const DujiaoFulfillmentSchema = z.object({
  type: goString,
  status: goString,
  /** The delivered text: their buyer hands it to its customer as it is. */
  payload: goString,
  delivery_data: goMap,
  delivered_at: goTime,
});

export const DujiaoOrderDetailSchema = z.object({
  order_id: goUint,
  order_no: goString,
  status: goString,
  amount: goString,
  refunded_amount: goString,
  currency: goString,
  fulfillment: opt(DujiaoFulfillmentSchema),
  refund_records: opt(z.array(goMap)),
});
export type DujiaoOrderDetail = z.infer<typeof DujiaoOrderDetailSchema>;

/** downstream_callback_service.go callbackRequest. */
export const DujiaoCallbackSchema = z.object({
  event: goString,
  order_id: goUint,
  order_no: goString,
  downstream_order_no: goString,
  status: goString,
  fulfillment: opt(DujiaoFulfillmentSchema),
  timestamp: goInt,
});
export type DujiaoCallback = z.infer<typeof DujiaoCallbackSchema>;

/** Their error body (any non-200 answer of theirs; their client does not read it). */
export const DujiaoErrorSchema = z.object({ ok: goBool, error_code: goString, error_message: goString });

/**
 * Their router's table (internal/router/router.go, the group under DUJIAO_PREFIX):
 * what our DUJIAO_PREFIX answers a request signed with their headers
 * (decision 0090). Handlers are bound by key in lib/supplier-api/endpoints.ts.
 */
export const DUJIAO_ENDPOINTS = {
  ping: { name: "dujiao.ping", method: "POST", path: "/ping" },
  listCategories: { name: "dujiao.categories", method: "GET", path: "/categories" },
  listProducts: { name: "dujiao.products.list", method: "GET", path: "/products" },
  getProduct: { name: "dujiao.products.get", method: "GET", path: "/products/{id}" },
  createOrder: { name: "dujiao.orders.create", method: "POST", path: "/orders" },
  getOrder: { name: "dujiao.orders.get", method: "GET", path: "/orders/{id}" },
  cancelOrder: { name: "dujiao.orders.cancel", method: "POST", path: "/orders/{id}/cancel" },
} as const satisfies Record<string, { name: string; method: "GET" | "POST"; path: string }>;
export type DujiaoEndpointKey = keyof typeof DUJIAO_ENDPOINTS;

/** Signed request headers in their names (the rule is ours, signing.ts); `path` without the query. */
export function dujiaoSignedHeaders(
  creds: { apiKey: string; apiSecret: string },
  method: string,
  path: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  return {
    [DUJIAO_HEADER_API_KEY]: creds.apiKey,
    [DUJIAO_HEADER_TIMESTAMP]: String(timestamp),
    [DUJIAO_HEADER_SIGNATURE]: signRequest({ method, path, timestamp, body, secret: creds.apiSecret }),
  };
}

/** An entry's path with its `{id}` filled in: dujiaoPath("getOrder", 12) → "/orders/12" (after DUJIAO_PREFIX). */
export function dujiaoPath(key: DujiaoEndpointKey, id?: number): string {
  const { path } = DUJIAO_ENDPOINTS[key];
  return id === undefined ? path : path.replace("{id}", String(id));
}
