import type { z } from "zod";
import { signedFetch, type SupplierCredentials } from "./signed-fetch";
import { HEADER_REQUEST_ID } from "./headers";
import { PROFILE_PREFIXES, type Profile } from "./profiles";
import {
  AccountSchema,
  CategoriesSchema,
  ErrorBodySchema,
  OrderCreatedSchema,
  OrderReadSchema,
  ProductDetailSchema,
  ProductPageSchema,
  StatementSchema,
} from "./wire-responses";
import type { CreateOrderBodySchema } from "./order-schemas";
import { CatalogWebhookSchema } from "./catalog-event-wire";
import { ENDPOINTS, pathOf, type EndpointKey } from "./endpoints";
import { ClaimListSchema, ClaimOpenedSchema, type OpenClaimBody } from "./after-sales-wire";

// The typed downstream client (issue 11.4). Results are parsed with the zod
// schemas of lib/protocol/wire-responses, so a downstream gets exactly the
// types the OpenAPI document describes.

/** A D1 error answer: `status`, `code` (error_code), `message`, `requestId`. */
export class SupplierApiError extends Error {
  override name = "SupplierApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** A response that is not what the interface promises (wrong shape, not JSON). */
export class SupplierProtocolError extends Error {
  override name = "SupplierProtocolError";
}

export interface SupplierClientOptions<P extends Profile> {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  profile: P;
  /** Defaults to the profile's primary prefix (PROFILE_PREFIXES, the /api/v1/… one). */
  prefix?: string;
  /** createOrder: attempts in all (default 5) and the back-off cap (default 30 s). */
  retry?: { attempts?: number; maxDelayMs?: number };
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

/** The create body of the profile, as you write it (P: no callback_url). */
export type CreateBody<P extends Profile> = z.input<(typeof CreateOrderBodySchema)[P]>;
type Out<S extends z.ZodType> = z.infer<S>;

/** "?a=1&b=2" of the defined values ("" when none); a Date as RFC 3339. */
function queryString(q: Record<string, string | number | boolean | Date | undefined>): string {
  const entries = Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, v instanceof Date ? v.toISOString() : String(v)]]));
  const qs = new URLSearchParams(entries).toString();
  return qs ? `?${qs}` : "";
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Exponential back-off from 500 ms, capped; Retry-After (seconds) wins when longer. */
export function retryDelayMs(attempt: number, maxDelayMs: number, retryAfterSeconds?: number): number {
  const backoff = Math.min(maxDelayMs, 500 * 2 ** attempt);
  return retryAfterSeconds === undefined ? backoff : Math.min(Math.max(backoff, retryAfterSeconds * 1000), 5 * 60_000);
}

export function createSupplierClient<P extends Profile>(opts: SupplierClientOptions<P>) {
  const creds: SupplierCredentials = { apiKey: opts.apiKey, apiSecret: opts.apiSecret };
  const root = opts.baseUrl.replace(/\/+$/, "") + (opts.prefix ?? PROFILE_PREFIXES[opts.profile][0]);
  const sleep = opts.sleep ?? wait;
  const attempts = opts.retry?.attempts ?? 5;
  const maxDelayMs = opts.retry?.maxDelayMs ?? 30_000;
  let lastTs = 0;
  // Profile P refuses a repeated (key, timestamp, signature) (D8): every request gets its own second.
  const timestamp = () => (lastTs = Math.max(Math.floor(Date.now() / 1000), lastTs + 1));

  /** One request to the endpoint of the table (lib/protocol/endpoints.ts): its method, its path with `id` and `query`. */
  async function call<S extends z.ZodType>(
    schema: S,
    key: EndpointKey,
    opts: { id?: number; query?: string; body?: string } = {},
  ): Promise<Out<S>> {
    const method = ENDPOINTS[key].method;
    const path = pathOf(key, opts.id) + (opts.query ?? "");
    const body = opts.body;
    const res = await signedFetch(root + path, creds, { method, body, timestamp: timestamp() });
    const requestId = res.headers.get(HEADER_REQUEST_ID);
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw res.ok
        ? new SupplierProtocolError(`${method} ${path}: ${res.status} response is not JSON`)
        : new SupplierApiError(res.status, "http_error", text.slice(0, 200), requestId);
    }
    if (!res.ok) {
      const err = ErrorBodySchema.safeParse(json);
      const retryAfter = Number(res.headers.get("retry-after") ?? NaN);
      const e = err.success ? err.data : { error_code: "http_error", error_message: `status ${res.status}` };
      throw new SupplierApiError(
        res.status,
        e.error_code,
        e.error_message,
        requestId,
        Number.isFinite(retryAfter) ? retryAfter : undefined,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new SupplierProtocolError(
        `${method} ${path}: unexpected response shape at ${parsed.error.issues[0]?.path.join(".") || "body"}`,
      );
    return parsed.data;
  }

  const retryable = (err: unknown) =>
    err instanceof SupplierApiError
      ? err.status >= 500 || err.status === 429
      : !(err instanceof SupplierProtocolError) && (err as Error)?.name !== "AbortError";

  const profile = opts.profile as Profile;
  return {
    profile: opts.profile,
    ping: () => call(AccountSchema, "ping"),
    categories: async () => (await call(CategoriesSchema, "listCategories")).categories,
    products: (q: { page?: number; page_size?: number; include_inactive?: boolean; updated_after?: string } = {}) =>
      call(ProductPageSchema[profile], "listProducts", { query: queryString(q) }) as Promise<Out<(typeof ProductPageSchema)[P]>>,
    /**
     * Incremental sync (docs/protocol.md "Incremental catalogue sync"): every
     * product changed after `token` ("0": all), inactive and delisted ones
     * included, following sync_token to the end. Save the returned token.
     */
    async syncProducts(token = "0", pageSize = 100) {
      const items: Out<(typeof ProductPageSchema)[P]>["items"] = [];
      for (let round = 0; round < 100_000; round++) {
        const page = (await call(ProductPageSchema[profile], "listProducts", {
          query: queryString({ updated_after: token, include_inactive: true, page_size: pageSize }),
        })) as Out<(typeof ProductPageSchema)[P]>;
        items.push(...page.items);
        if (!page.sync_token) throw new SupplierProtocolError("GET /products: no sync_token (the server does not offer incremental sync)");
        token = page.sync_token;
        if (page.items.length < pageSize) break;
      }
      return { items, token };
    },
    /**
     * Extension: your points ledger, newest first (docs/protocol.md "Balance
     * statement"). from inclusive, to exclusive; a Date is sent as RFC 3339.
     */
    statement: (q: { page?: number; page_size?: number; from?: Date | string | number; to?: Date | string | number } = {}) =>
      call(StatementSchema, "getStatement", { query: queryString(q) }),
    product: (id: number) => call(ProductDetailSchema[profile], "getProduct", { id }) as Promise<Out<(typeof ProductDetailSchema)[P]>>,
    getOrder: (id: number) => call(OrderReadSchema[profile], "getOrder", { id }) as Promise<Out<(typeof OrderReadSchema)[P]>>,
    /** Profile U extension (issue 12.2): the key's catalogue webhook; each answers `{ ok, url }` after the change (Profile P: 404 not_found). */
    putCatalogWebhook: (url: string) => call(CatalogWebhookSchema, "putCatalogWebhook", { body: JSON.stringify({ url }) }),
    getCatalogWebhook: () => call(CatalogWebhookSchema, "getCatalogWebhook"),
    deleteCatalogWebhook: () => call(CatalogWebhookSchema, "deleteCatalogWebhook"),

    /**
     * Create an order. After a network error, a 5xx or a 429 (waiting
     * Retry-After) it sends the same body bytes again, same
     * downstream_order_no, freshly signed: the server answers the original
     * order (D18). Never a new number. Other errors are thrown at once.
     */
    async createOrder(body: CreateBody<P>): Promise<Out<(typeof OrderCreatedSchema)[P]>> {
      const bytes = JSON.stringify(body);
      const schema = OrderCreatedSchema[profile] as (typeof OrderCreatedSchema)[P];
      for (let attempt = 0; ; attempt++) {
        try {
          return (await call(schema, "createOrder", { body: bytes })) as Out<(typeof OrderCreatedSchema)[P]>;
        } catch (err) {
          if (attempt + 1 >= attempts || !retryable(err)) throw err;
          await sleep(retryDelayMs(attempt, maxDelayMs, err instanceof SupplierApiError ? err.retryAfterSeconds : undefined));
        }
      }
    },

    /**
     * Poll an order until it is delivered or failed (section 4.6): 1 s, 2 s,
     * 4 s … capped at `maxDelayMs`; transient errors count as polls. Throws
     * after `timeoutMs` (default 10 minutes): the order may still complete.
     */
    async waitForOrder(id: number, w: { timeoutMs?: number; initialDelayMs?: number; maxDelayMs?: number } = {}) {
      const deadline = Date.now() + (w.timeoutMs ?? 600_000);
      let delay = w.initialDelayMs ?? 1000;
      for (;;) {
        try {
          const order = await this.getOrder(id);
          if ((order as { status: string }).status !== "processing") return order;
        } catch (err) {
          if (!retryable(err)) throw err;
        }
        if (Date.now() + delay > deadline) throw new Error(`order ${id} still processing after the wait`);
        await sleep(delay);
        delay = Math.min(delay * 2, w.maxDelayMs ?? 30_000);
      }
    },

    /**
     * Extension (docs/protocol.md "After-sales"): claim one delivered line
     * (0-based index in delivery_data) as defective. Idempotent on
     * request_id: after a network error or a 5xx send the same body again.
     */
    openClaim: (orderId: number, body: OpenClaimBody) => call(ClaimOpenedSchema, "openClaim", { id: orderId, body: JSON.stringify(body) }),
    /** Extension: the claims of one of your orders, and what was refunded in all. */
    listClaims: (orderId: number) => call(ClaimListSchema, "listClaims", { id: orderId }),

    /** Never succeeds in this protocol (D23); resolves to the D1 error. */
    async cancelOrder(id: number): Promise<SupplierApiError> {
      try {
        await call(ErrorBodySchema, "cancelOrder", { id, body: profile === "P" ? "{}" : "" });
      } catch (err) {
        if (err instanceof SupplierApiError) return err;
        throw err;
      }
      throw new SupplierProtocolError("cancel succeeded, which the protocol never allows");
    },
  };
}

export type SupplierClient<P extends Profile = Profile> = ReturnType<typeof createSupplierClient<P>>;
