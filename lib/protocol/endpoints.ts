import type { z } from "zod";
import { ClaimListSchema, ClaimOpenedSchema, OpenClaimBodySchema } from "./after-sales-wire";
import { CatalogWebhookBodySchema, CatalogWebhookSchema } from "./catalog-event-wire";
import { ProductsQuerySchema } from "./catalog-query";
import { CancelOrderBodySchema, CreateOrderBodySchema } from "./order-schemas";
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
  type WireErrorCode,
} from "./wire-responses";

/**
 * THE ENDPOINT TABLE of the supplier API (decision 0036): the seven endpoints
 * of section 4 and the extensions of docs/protocol.md ("Extensions"). Every
 * other list is made from it: the router (lib/supplier-api/router.ts), the
 * OpenAPI operations (./openapi/operations.ts), the typed client's paths
 * (./typed-client.ts), the security suite, the conformance kit and the
 * tests. Its handlers are bound by key in lib/supplier-api/endpoints.ts
 * (TypeScript refuses a key without one); the table itself stays here, in the wire contract, because
 * downstream clients (the typed client, lib/upstream) read it and must not
 * load the server.
 *
 * Adding an endpoint: one entry here and its handler under
 * lib/supplier-api/endpoints/, exported as `<key>Endpoint` (CODE_STYLE.md,
 * "How to add an endpoint"). The key is the OpenAPI
 * operation's key (operationId `provider_<key>`).
 */
export interface EndpointEntry {
  /** The log line's and metrics' `endpoint` ("orders.create"); two methods of one handler share it. */
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** After the prefix, as an OpenAPI path template: `{id}` is a path parameter, anything else literal. */
  path: string;
  /** The profiles that have it (default both); under the other profile's prefixes the path is 404 not_found. */
  profiles?: readonly Profile[];
  /**
   * The request body, per profile, checked by the pipeline (D17) and described
   * by OpenAPI. A profile without a schema ignores the body (D23: cancel in U).
   */
  body?: { U?: z.ZodType; P?: z.ZodType; allowEmpty?: boolean };
  /** Object.fromEntries(searchParams), per profile. */
  query?: { U: z.ZodType; P: z.ZodType };
  /** OpenAPI operation metadata (lib/protocol/openapi/document.ts). */
  doc: {
    summary: string;
    /** Section of docs/protocol.md. */
    guide: string;
    /** Which query parameters document.ts describes. */
    query?: "products" | "statement";
    /** What `{id}` names. */
    pathId?: "product" | "order";
    success?: (profile: Profile) => z.ZodType;
    /** status → codes, beyond the ones every endpoint can answer with (operations.ts commonErrors). */
    errors?: (profile: Profile) => Partial<Record<number, WireErrorCode[]>>;
  };
  /**
   * A request that passes authentication and changes nothing (`{id}` becomes
   * 999999, an unknown id; the body names an unknown SKU or a refused URL):
   * the security suite and the router tests send it to every endpoint.
   */
  sampleBody?: (unique: string) => string;
}

export const ENDPOINTS = {
  ping: {
    name: "ping",
    method: "GET",
    path: "/ping",
    doc: { summary: "Connection test, account and balance", guide: "ping", success: () => AccountSchema },
  },
  pingPost: {
    name: "ping",
    method: "POST",
    path: "/ping",
    doc: { summary: "Connection test (POST; the body is ignored)", guide: "ping", success: () => AccountSchema },
  },
  listCategories: {
    name: "categories.list",
    method: "GET",
    path: "/categories",
    doc: { summary: "List categories", guide: "categories", success: () => CategoriesSchema },
  },
  listProducts: {
    name: "products.list",
    method: "GET",
    path: "/products",
    query: ProductsQuerySchema,
    doc: { summary: "List products (paged, D10)", guide: "products", query: "products", success: (p) => ProductPageSchema[p] },
  },
  getProduct: {
    name: "products.get",
    method: "GET",
    path: "/products/{id}",
    doc: {
      summary: "One product; inactive ones too (D11)",
      guide: "product-detail",
      pathId: "product",
      success: (p) => ProductDetailSchema[p],
      errors: (p) => ({ 404: [p === "P" ? "product_not_found" : "product_unavailable"] }),
    },
  },
  createOrder: {
    name: "orders.create",
    method: "POST",
    path: "/orders",
    body: CreateOrderBodySchema,
    doc: {
      summary: "Create a purchase order (idempotent on downstream_order_no, D18)",
      guide: "create-order",
      success: (p) => OrderCreatedSchema[p],
      errors: (p) => ({
        400: [
          ...(p === "P" ? (["invalid_json"] as const) : []),
          ...(p === "P" ? [] : (["product_unavailable"] as const)),
          "sku_unavailable",
          "insufficient_stock",
          "insufficient_balance",
        ],
        ...(p === "P" ? { 403: ["points_disabled"] } : {}),
        409: ["idempotency_conflict"],
      }),
    },
    sampleBody: (u) => JSON.stringify({ downstream_order_no: `SEC-${u}`, sku_id: 999999, quantity: 1 }),
  },
  getOrder: {
    name: "orders.read",
    method: "GET",
    path: "/orders/{id}",
    doc: {
      summary: "Read one of your orders (D20)",
      guide: "read-order",
      pathId: "order",
      success: (p) => OrderReadSchema[p],
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
    doc: {
      summary: "Extension: claim one delivered line as defective (idempotent on request_id)",
      guide: "after-sales",
      pathId: "order",
      success: () => ClaimOpenedSchema,
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
    doc: {
      summary: "Extension: the after-sales claims of one of your orders",
      guide: "after-sales",
      pathId: "order",
      success: () => ClaimListSchema,
      errors: () => ({ 404: ["order_not_found"] }),
    },
  },
  // Extension: balance statement (docs/decisions/0019-balance-statement.md); read-only.
  getStatement: {
    name: "statement.list",
    method: "GET",
    path: "/statement",
    query: StatementQuerySchema,
    doc: {
      summary: "Extension: your points ledger, newest first (paged like products)",
      guide: "balance-statement",
      query: "statement",
      success: () => StatementSchema,
    },
  },
  // Issue 12.2, Profile U extension: the key's catalogue webhook (docs/protocol.md#catalogue-events).
  // Profile P sends no callbacks (section 6): under its prefixes the path does not exist.
  getCatalogWebhook: {
    name: "catalog-webhook.get",
    method: "GET",
    path: "/catalog-webhook",
    profiles: ["U"],
    doc: {
      summary: "Read the key's catalogue webhook (extension, Profile U)",
      guide: "catalogue-events",
      success: () => CatalogWebhookSchema,
    },
  },
  putCatalogWebhook: {
    name: "catalog-webhook.put",
    method: "PUT",
    path: "/catalog-webhook",
    profiles: ["U"],
    body: { U: CatalogWebhookBodySchema, P: CatalogWebhookBodySchema },
    doc: {
      summary: "Register or replace the key's catalogue webhook (extension, Profile U; D29 address rules)",
      guide: "catalogue-events",
      success: () => CatalogWebhookSchema,
    },
    // Harmless: a URL refused by D29 (its scheme).
    sampleBody: () => JSON.stringify({ url: "ftp://example.com/hook" }),
  },
  deleteCatalogWebhook: {
    name: "catalog-webhook.delete",
    method: "DELETE",
    path: "/catalog-webhook",
    profiles: ["U"],
    doc: {
      summary: "Remove the key's catalogue webhook (extension, Profile U)",
      guide: "catalogue-events",
      success: () => CatalogWebhookSchema,
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
