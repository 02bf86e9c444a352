import type { z } from "zod";
import { CatalogWebhookBodySchema, CatalogWebhookSchema } from "../catalog-event-wire";
import { ClaimListSchema, ClaimOpenedSchema, OpenClaimBodySchema } from "../after-sales-wire";
import { CancelOrderBodySchema, CreateOrderBodySchema } from "../order-schemas";
import type { Profile } from "../profiles";
import {
  AccountSchema,
  CategoriesSchema,
  OrderCreatedSchema,
  OrderReadSchema,
  ProductDetailSchema,
  ProductPageSchema,
  StatementSchema,
  type WireErrorCode,
} from "../wire-responses";

// The seven endpoints of section 4, and the extensions (docs/protocol.md
// "Extensions"), as the OpenAPI document describes them:
// per profile the request body, the success body and every error code the
// endpoint can answer with, by HTTP status (section 7 and the decisions).
// The conformance kit reads the same table.

export interface Operation {
  key: string;
  method: "get" | "post" | "put" | "delete";
  /** After the prefix; OpenAPI path template. */
  path: string;
  summary: string;
  /** Section of docs/protocol.md. */
  guide: string;
  body?: { schema: z.ZodType; required: boolean };
  /** Which query parameters (document.ts describes each set). */
  query?: "products" | "statement";
  pathId?: "product" | "order";
  success?: z.ZodType;
  /** status → codes, in addition to the codes every endpoint can answer with. */
  errors: Partial<Record<number, WireErrorCode[]>>;
}

/** Every endpoint, both profiles: D7 authentication, D30, D31, D1 internal errors; a malformed request; a body too slow (issue 22.2). */
export function commonErrors(profile: Profile): Partial<Record<number, WireErrorCode[]>> {
  return {
    400: ["bad_request"],
    401: ["unauthorized"],
    ...(profile === "P" ? { 409: ["replay_detected"] } : {}),
    408: ["request_timeout"],
    413: ["request_too_large"],
    429: ["rate_limited"],
    500: ["internal_error"],
  };
}

export function operations(profile: Profile): Operation[] {
  const P = profile === "P";
  return [
    { key: "ping", method: "get", path: "/ping", summary: "Connection test, account and balance", guide: "ping", success: AccountSchema, errors: {} },
    {
      key: "pingPost",
      method: "post",
      path: "/ping",
      summary: "Connection test (POST; the body is ignored)",
      guide: "ping",
      success: AccountSchema,
      errors: {},
    },
    { key: "listCategories", method: "get", path: "/categories", summary: "List categories", guide: "categories", success: CategoriesSchema, errors: {} },
    {
      key: "listProducts",
      method: "get",
      path: "/products",
      summary: "List products (paged, D10)",
      guide: "products",
      query: "products",
      success: ProductPageSchema[profile],
      errors: {},
    },
    {
      key: "getProduct",
      method: "get",
      path: "/products/{id}",
      summary: "One product; inactive ones too (D11)",
      guide: "product-detail",
      pathId: "product",
      success: ProductDetailSchema[profile],
      errors: { 404: [P ? "product_not_found" : "product_unavailable"] },
    },
    {
      key: "createOrder",
      method: "post",
      path: "/orders",
      summary: "Create a purchase order (idempotent on downstream_order_no, D18)",
      guide: "create-order",
      body: { schema: CreateOrderBodySchema[profile], required: true },
      success: OrderCreatedSchema[profile],
      errors: {
        400: [
          ...(P ? (["invalid_json"] as const) : []),
          ...(P ? [] : (["product_unavailable"] as const)),
          "sku_unavailable",
          "insufficient_stock",
          "insufficient_balance",
        ],
        ...(P ? { 403: ["points_disabled"] } : {}),
        409: ["idempotency_conflict"],
      },
    },
    {
      key: "getOrder",
      method: "get",
      path: "/orders/{id}",
      summary: "Read one of your orders (D20)",
      guide: "read-order",
      pathId: "order",
      success: OrderReadSchema[profile],
      errors: { 404: ["order_not_found"] },
    },
    {
      key: "cancelOrder",
      method: "post",
      path: "/orders/{id}/cancel",
      summary: "Cancel request: never allowed (D23)",
      guide: "cancel",
      pathId: "order",
      // D23: Profile U ignores a cancel body; P checks it strictly.
      ...(P ? { body: { schema: CancelOrderBodySchema.P, required: false } } : {}),
      errors: { ...(P ? { 400: ["invalid_json"] } : {}), 404: ["order_not_found"], 409: ["cancel_not_allowed"] },
    },
    {
      key: "getStatement",
      method: "get",
      path: "/statement",
      summary: "Extension: your points ledger, newest first (paged like products)",
      guide: "balance-statement",
      query: "statement",
      success: StatementSchema,
      errors: {},
    },
    ...afterSalesOperations(profile),
    ...(P ? [] : catalogWebhookOperations()),
  ];
}

/** Issue 26.3, extension in both profiles: claims of one delivered line (docs/protocol.md#after-sales). */
function afterSalesOperations(profile: Profile): Operation[] {
  const common = { path: "/orders/{id}/after-sales", guide: "after-sales", pathId: "order" as const };
  return [
    {
      ...common,
      key: "openClaim",
      method: "post",
      summary: "Extension: claim one delivered line as defective (idempotent on request_id)",
      body: { schema: OpenClaimBodySchema[profile], required: true },
      success: ClaimOpenedSchema,
      errors: {
        ...(profile === "P" ? { 400: ["invalid_json"] } : {}),
        404: ["order_not_found"],
        409: ["after_sales_closed", "line_already_claimed", "idempotency_conflict"],
      },
    },
    { ...common, key: "listClaims", method: "get", summary: "Extension: the after-sales claims of one of your orders", success: ClaimListSchema, errors: { 404: ["order_not_found"] } },
  ];
}

/** Issue 12.2, Profile U extension: the key's catalogue webhook (docs/protocol.md#catalogue-events). */
function catalogWebhookOperations(): Operation[] {
  const common = { path: "/catalog-webhook", guide: "catalogue-events", success: CatalogWebhookSchema, errors: {} };
  return [
    { ...common, key: "getCatalogWebhook", method: "get", summary: "Read the key's catalogue webhook (extension, Profile U)" },
    {
      ...common,
      key: "putCatalogWebhook",
      method: "put",
      summary: "Register or replace the key's catalogue webhook (extension, Profile U; D29 address rules)",
      body: { schema: CatalogWebhookBodySchema, required: true },
    },
    { ...common, key: "deleteCatalogWebhook", method: "delete", summary: "Remove the key's catalogue webhook (extension, Profile U)" },
  ];
}

/** All codes an operation can answer with, by status. */
export function errorsOf(profile: Profile, op: Operation): Map<number, WireErrorCode[]> {
  const out = new Map<number, WireErrorCode[]>();
  for (const table of [commonErrors(profile), op.errors]) {
    for (const [status, codes] of Object.entries(table)) {
      const s = Number(status);
      out.set(s, [...new Set([...(out.get(s) ?? []), ...(codes ?? [])])]);
    }
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}
