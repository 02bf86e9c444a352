import { env } from "../config/env";
import { z } from "zod";
import { supplierClient, type SupplierCredentials } from "../protocol/client";
import { pathOf } from "../protocol/endpoints";
import { PROFILE_PREFIXES, type Profile } from "../protocol/profiles";
import { ERROR_STATUS } from "../protocol/errors";
import { AmountTextSchema as Amount } from "../protocol/amount";
import { LanguageTextSchema } from "../protocol/language";
import { MAX_CONTENT_LENGTH } from "../catalog/catalog-file-schema";
import { UpstreamError } from "./upstream-error";
import { allPages, sendAndRead } from "./upstream-answer";

// Our client of another supplier that speaks the same protocol (issue 4,
// upstream fulfillment). Signing is lib/protocol/client.ts (the one signer);
// this file adds timeouts, the profile's prefix and lenient parsing of the
// answers into plain objects. No database: integrators could reuse it.
// Why not the typed client (lib/protocol/typed-client.ts), decision 0081:
// that one trusts a server that keeps our contract and shows its messages;
// this one faces servers we do not run, so it decodes only what we use and
// tolerates the rest, never keeps text they chose (UpstreamError), refuses
// redirects, caps bodies and retries a replay refusal. Paths come from the
// one endpoint table either way (pathOf).

export interface UpstreamEndpoint extends SupplierCredentials {
  baseUrl: string;
  profile: Profile;
}

export { UpstreamError } from "./upstream-error";

// Issue 8.3: a price below zero would credit our buyer on every order; the product is skipped.
const Price = Amount.refine((s) => !s.startsWith("-") || /^-0+(\.0+)?$/.test(s), "priced below zero");

export const UpstreamPingSchema = z.object({
  ok: z.literal(true),
  site_name: z.string().optional(),
  balance: Amount,
  currency: z.string().optional(),
});

export const UpstreamCategorySchema = z.object({
  id: z.int().positive(),
  parent_id: z.int().min(0).catch(0),
  slug: z.string(),
  name: LanguageTextSchema,
  sort_order: z.int().catch(0),
});

export const UpstreamSkuSchema = z.object({
  id: z.int().positive(),
  sku_code: z.string(),
  spec_values: z.record(z.string(), z.unknown()).catch({}),
  price_amount: Price,
  stock_quantity: z.int(),
  is_active: z.boolean(),
});

export const UpstreamProductSchema = z.object({
  id: z.int().positive(),
  slug: z.string(),
  title: LanguageTextSchema,
  description: LanguageTextSchema.catch({ "zh-CN": "", en: "" }),
  // Capped as at every import (issue 8.6): longer content makes the product malformed.
  content: LanguageTextSchema.catch({ "zh-CN": "", en: "" }).refine(
    (t) => t["zh-CN"].length <= MAX_CONTENT_LENGTH && t.en.length <= MAX_CONTENT_LENGTH,
    `content must be at most ${MAX_CONTENT_LENGTH} characters per language`,
  ),
  price_amount: Price,
  original_price: Price.optional(),
  fulfillment_type: z.string().optional(),
  manual_form_schema: z
    .object({ fields: z.array(z.unknown()) })
    .loose()
    .optional(),
  is_active: z.boolean(),
  category_id: z.int().positive(),
  delivery_format: z.string().catch("text"),
  delivery_delimiter: z.string().catch("----"),
  logo_url: z.string().catch(""),
  images: z.array(z.string()).catch([]),
  skus: z.array(UpstreamSkuSchema),
});

// Items are checked one by one by the import (parse-upstream-product.ts): one bad product must not sink the page.
const ProductsPageSchema = z.object({ items: z.array(z.unknown()), total: z.int().min(0), page: z.int(), page_size: z.int() });

export const UpstreamOrderSchema = z.object({
  order_id: z.int().positive(),
  order_no: z.string(),
  downstream_order_no: z.string(),
  status: z.enum(["processing", "delivered", "failed"]),
  amount: Amount,
  error_message: z.string().nullish(),
  fulfillment: z
    .object({ payload: z.string().optional(), delivery_data: z.array(z.string()).optional() })
    .loose()
    .optional(),
});

export type UpstreamCategory = z.infer<typeof UpstreamCategorySchema>;
export type UpstreamProduct = z.infer<typeof UpstreamProductSchema>;
/**
 * An upstream order as the purchase flow reads it. `partially_refunded`: a
 * Dujiao-Next supplier refunded part of it (decision 0092); ours never says so.
 */
export type UpstreamOrder = Omit<z.infer<typeof UpstreamOrderSchema>, "status"> & {
  status: z.infer<typeof UpstreamOrderSchema>["status"] | "partially_refunded";
};

export interface UpstreamCreateOrder {
  downstream_order_no: string;
  sku_id: number;
  quantity: number;
  trace_id?: string;
  callback_url?: string;
  manual_form_data?: Record<string, unknown>;
}

/** UPSTREAM_HTTP_TIMEOUT_MS (default 15 s): a call without an answer by then is a "network" failure. */
export function upstreamTimeoutMs(): number {
  return env().UPSTREAM_HTTP_TIMEOUT_MS;
}

export function upstreamClient(endpoint: UpstreamEndpoint, opts: { timeoutMs?: number } = {}) {
  const client = supplierClient(endpoint.baseUrl, PROFILE_PREFIXES[endpoint.profile][0], endpoint);
  const timeoutMs = opts.timeoutMs ?? upstreamTimeoutMs();

  /**
   * Profile P refuses a signed request seen before (D8: key, timestamp,
   * signature), and two identical GETs within one second sign alike. So a
   * replay_detected answer is retried once the clock has moved to the next
   * second (a new timestamp). Bounded: two retries.
   */
  async function call<T>(schema: z.ZodType<T>, method: Method, path: string, body?: object): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await callOnce(schema, method, path, body);
      } catch (err) {
        if (attempt >= 2 || !(err instanceof UpstreamError) || err.errorCode !== "replay_detected") throw err;
        await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
      }
    }
  }

  async function callOnce<T>(schema: z.ZodType<T>, method: Method, path: string, body?: object): Promise<T> {
    // Issue 8.3: a redirect is not followed (it could lead anywhere, past the address checks).
    // Issue 22.3: the base URL's host name is resolved off the thread pool, 2 s at most.
    const { res, json } = await sendAndRead(
      (init) => (method === "GET" ? client.get(path, init) : client.request(path, { ...init, method, body: body ?? "" })),
      timeoutMs,
    );
    if (!res.ok) {
      // Only a code of the protocol is kept; the upstream's error_message is never stored or shown.
      const raw = (json as { error_code?: unknown } | undefined)?.error_code;
      const code = typeof raw === "string" && Object.hasOwn(ERROR_STATUS, raw) ? raw : null;
      throw new UpstreamError("http", `HTTP ${res.status}${code ? ` ${code}` : ""}`, res.status, code);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new UpstreamError("invalid", `unexpected answer from ${method} ${path.split("?")[0]}`, res.status);
    return parsed.data;
  }

  return {
    ping: () => call(UpstreamPingSchema, "GET", pathOf("ping")),
    categories: async () =>
      (await call(z.object({ categories: z.array(UpstreamCategorySchema) }), "GET", pathOf("listCategories"))).categories,
    productsPage: (page: number, pageSize = 100) =>
      call(ProductsPageSchema, "GET", `${pathOf("listProducts")}?page=${page}&page_size=${pageSize}&include_inactive=true`),
    /** Every product entry, inactive ones included (so a re-import can delist them), unchecked. Bounded by `maxPages`. */
    allProducts(maxPages = 1000): Promise<unknown[]> {
      return allPages((page) => this.productsPage(page), maxPages);
    },
    createOrder: (body: UpstreamCreateOrder): Promise<UpstreamOrder> => call(UpstreamOrderSchema, "POST", pathOf("createOrder"), body),
    /** `downstreamOrderNo`: the number we sent; our protocol's answer carries it (checked by run-purchase.ts), Dujiao-Next's does not. */
    getOrder: (orderId: number, downstreamOrderNo?: string): Promise<UpstreamOrder> => {
      void downstreamOrderNo;
      return call(UpstreamOrderSchema, "GET", pathOf("getOrder", orderId));
    },
    /** Any other signed call, answer parsed by `schema` (the extensions' clients, e.g. lib/after-sales/upstream-claims.ts). */
    request: <T>(schema: z.ZodType<T>, method: Method, path: string, body?: object) => call(schema, method, path, body),
  };
}

export type UpstreamClient = ReturnType<typeof upstreamClient>;
type Method = "GET" | "POST" | "PUT";
