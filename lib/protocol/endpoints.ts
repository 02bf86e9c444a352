import { ClaimListSchema, ClaimOpenedSchema, OpenClaimBodySchema } from "./after-sales-wire";
import { CatalogWebhookBodySchema, CatalogWebhookSchema } from "./catalog-event-wire";
import { ProductsQuerySchema } from "./catalog-query";
import { CancelOrderBodySchema, CreateOrderBodySchema } from "./order-schemas";
import type { EndpointEntry } from "./endpoint-entry";
import type { Profile } from "./profiles";
import { StatementQuerySchema } from "./statement-query";
import {
  AccountSchema,
  CategoriesSchema,
  OrderCreatedSchema,
  OrderReadSchema,
  ProductDetailSchema,
  ProductPageSchema,
  StatementSchema,
} from "./wire-responses";

/**
 * THE ENDPOINT TABLE of the supplier API (decision 0036): the seven endpoints
 * of section 4 and the extensions of docs/protocol.md ("Extensions"). Every
 * other list is made from it: the router (lib/supplier-api/router.ts), the
 * OpenAPI operations (./openapi/operations.ts), the typed client's methods
 * (./typed-client.ts), the security suite, the conformance kit and the tests.
 * The table stays here, in the wire contract, because downstream clients
 * (the typed client, lib/upstream) read it and must not load the server; the
 * handlers are bound by key in lib/supplier-api/endpoints.ts (decision 0081).
 *
 * Adding an endpoint: one entry here and its handler, named in that file's
 * table (CODE_STYLE.md, "How to add an endpoint"). The key is the OpenAPI
 * operation's key (operationId `provider_<key>`) and the typed client's method.
 */
export const ENDPOINTS = {
  ping: {
    name: "ping",
    method: "GET",
    path: "/ping",
    success: AccountSchema,
    doc: { summary: "Connection test, account and balance", guide: "ping" },
  },
  pingPost: {
    name: "ping",
    method: "POST",
    path: "/ping",
    success: AccountSchema,
    doc: { summary: "Connection test (POST; the body is ignored)", guide: "ping" },
  },
  listCategories: {
    name: "categories.list",
    method: "GET",
    path: "/categories",
    success: CategoriesSchema,
    doc: { summary: "List categories", guide: "categories" },
  },
  listProducts: {
    name: "products.list",
    method: "GET",
    path: "/products",
    query: ProductsQuerySchema,
    success: ProductPageSchema,
    doc: { summary: "List products (paged, D10)", guide: "products", query: "products" },
  },
  getProduct: {
    name: "products.get",
    method: "GET",
    path: "/products/{id}",
    success: ProductDetailSchema,
    doc: {
      summary: "One product; inactive ones too (D11)",
      guide: "product-detail",
      pathId: "product",
      errors: (p) => ({ 404: [p === "P" ? "product_not_found" : "product_unavailable"] }),
    },
  },
  createOrder: {
    name: "orders.create",
    method: "POST",
    path: "/orders",
    body: CreateOrderBodySchema,
    resend: true, // D18
    success: OrderCreatedSchema,
    doc: {
      summary: "Create a purchase order (idempotent on downstream_order_no, D18)",
      guide: "create-order",
      errors: (p) => ({
        400: [
          ...(p === "P" ? (["invalid_json"] as const) : []),
          ...(p === "P" ? [] : (["product_unavailable"] as const)),
          "sku_unavailable",
          "insufficient_stock",
          "insufficient_balance",
        ],
        ...(p === "P" ? { 403: ["points_disabled"] } : {}),
        // max_total_exceeded: extension (issue 38, decision 0094).
        409: ["idempotency_conflict", "max_total_exceeded"],
      }),
    },
    sampleBody: (u) => JSON.stringify({ downstream_order_no: `SEC-${u}`, sku_id: 999999, quantity: 1 }),
  },
  getOrder: {
    name: "orders.read",
    method: "GET",
    path: "/orders/{id}",
    success: OrderReadSchema,
    doc: {
      summary: "Read one of your orders (D20)",
      guide: "read-order",
      pathId: "order",
      errors: () => ({ 404: ["order_not_found"] }),
    },
  },
  cancelOrder: {
    name: "orders.cancel",
    method: "POST",
    path: "/orders/{id}/cancel",
    // D23: Profile U ignores a cancel body; P checks it strictly, and an empty one is {}.
    body: { ...CancelOrderBodySchema, allowEmpty: true },
    doc: {
      summary: "Cancel request: never allowed (D23)",
      guide: "cancel",
      pathId: "order",
      errors: (p) => ({ ...(p === "P" ? { 400: ["invalid_json"] } : {}), 404: ["order_not_found"], 409: ["cancel_not_allowed"] }),
    },
    sampleBody: () => "{}",
  },
  // Extension, both profiles: after-sales claims of one delivered line (issue 26.3, decision 0043, docs/protocol.md#after-sales).
  openClaim: {
    name: "orders.after-sales.open",
    method: "POST",
    path: "/orders/{id}/after-sales",
    body: OpenClaimBodySchema,
    resend: true, // idempotent on request_id
    success: ClaimOpenedSchema,
    doc: {
      summary: "Extension: claim one delivered line as defective (idempotent on request_id)",
      guide: "after-sales",
      pathId: "order",
      errors: (p) => ({
        ...(p === "P" ? { 400: ["invalid_json"] } : {}),
        404: ["order_not_found"],
        409: ["after_sales_closed", "line_already_claimed", "idempotency_conflict"],
      }),
    },
    // Harmless: an unknown order.
    sampleBody: (u) => JSON.stringify({ request_id: `SEC-${u}`, line: 0, reason: "security suite" }),
  },
  listClaims: {
    name: "orders.after-sales.list",
    method: "GET",
    path: "/orders/{id}/after-sales",
    success: ClaimListSchema,
    doc: {
      summary: "Extension: the after-sales claims of one of your orders",
      guide: "after-sales",
      pathId: "order",
      errors: () => ({ 404: ["order_not_found"] }),
    },
  },
  // Extension: balance statement (docs/decisions/0019-balance-statement.md); read-only.
  getStatement: {
    name: "statement.list",
    method: "GET",
    path: "/statement",
    query: StatementQuerySchema,
    success: StatementSchema,
    doc: {
      summary: "Extension: your points ledger, newest first (paged like products)",
      guide: "balance-statement",
      query: "statement",
    },
  },
  // Issue 12.2, Profile U extension: the key's catalogue webhook (docs/protocol.md#catalogue-events).
  // Profile P sends no callbacks (section 6): under its prefixes the path does not exist.
  getCatalogWebhook: {
    name: "catalog-webhook.get",
    method: "GET",
    path: "/catalog-webhook",
    profiles: ["U"],
    success: CatalogWebhookSchema,
    doc: {
      summary: "Read the key's catalogue webhook (extension, Profile U)",
      guide: "catalogue-events",
    },
  },
  putCatalogWebhook: {
    name: "catalog-webhook.put",
    method: "PUT",
    path: "/catalog-webhook",
    profiles: ["U"],
    body: { U: CatalogWebhookBodySchema, P: CatalogWebhookBodySchema },
    success: CatalogWebhookSchema,
    doc: {
      summary: "Register or replace the key's catalogue webhook (extension, Profile U; D29 address rules)",
      guide: "catalogue-events",
    },
    // Harmless: a URL refused by D29 (its scheme).
    sampleBody: () => JSON.stringify({ url: "ftp://example.com/hook" }),
  },
  deleteCatalogWebhook: {
    name: "catalog-webhook.delete",
    method: "DELETE",
    path: "/catalog-webhook",
    profiles: ["U"],
    success: CatalogWebhookSchema,
    doc: {
      summary: "Remove the key's catalogue webhook (extension, Profile U)",
      guide: "catalogue-events",
    },
  },
} as const satisfies Record<string, EndpointEntry>;

export type EndpointKey = keyof typeof ENDPOINTS;

/** The table's entries, each with its key, in the table's order. */
export const ENDPOINT_LIST: readonly (EndpointEntry & { key: EndpointKey })[] = (Object.keys(ENDPOINTS) as EndpointKey[]).map((key) => ({
  key,
  ...(ENDPOINTS[key] as EndpointEntry),
}));

/** Whether the endpoint exists under the profile's prefixes. */
export const servedIn = (e: { profiles?: readonly Profile[] }, profile: Profile): boolean => !e.profiles || e.profiles.includes(profile);

/** The path after the prefix with its parameter filled in: pathOf("getOrder", 12) → "/orders/12". */
export function pathOf(key: EndpointKey, id?: number | string): string {
  const { path } = ENDPOINTS[key];
  return id === undefined ? path : path.replace("{id}", encodeURIComponent(String(id)));
}
