import { z } from "zod";
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../catalog-query";
import { HEADER_API_KEY, HEADER_REQUEST_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, PROTOCOL_VERSION } from "../headers";
import { INT4_MAX } from "../ids";
import { PROFILE_PREFIXES, type Profile } from "../profiles";
import { CatalogEventSchema } from "../catalog-event-wire";
import { ErrorBodySchema, errorBodySchema, OrderCallbackSchema } from "../wire-responses";
import { GUIDE_MARKDOWN, SIGNING_GUIDE } from "./guide";
import { errorsOf, operations, type Operation } from "./operations";
import { fulfillerPaths, fulfillerTag, fulfillerSecurityScheme, fulfillerWebhook } from "./fulfiller-paths";

// The OpenAPI 3.1 document of the supplier interface, generated from the zod
// wire schemas (z.toJSONSchema), never written by hand: request bodies from
// the schemas the server validates with, responses from lib/protocol/wire-responses.

/** The document as JSON: a reader walks it through a declared shape (check-response.ts) or key by key. */
export type OpenApiDocument = Record<string, unknown>;
type Json = Record<string, unknown>;

export const PROFILE_TAG: Record<Profile, string> = { U: "Profile U", P: "Profile P" };
const SECURITY = [{ SvcApiKey: [], SvcTimestamp: [], SvcSignature: [] }];

/** JSON Schema 2020-12 of one zod schema, without its $schema line (the document's dialect applies). */
function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json;
  return rest;
}

const requestIdHeader = { [HEADER_REQUEST_ID]: { description: "Also in the server's log line (D1)", schema: { type: "string" } } };

function errorResponse(codes: readonly string[], status: number): Json {
  const schema = schemaOf(errorBodySchema(codes as never), "output");
  const headers: Json = { ...requestIdHeader };
  if (status === 429) headers["Retry-After"] = { description: "Seconds to wait (D31)", schema: { type: "string", pattern: "^[0-9]+$" } };
  return {
    description: codes.map((c) => `\`${c}\``).join(", "),
    headers,
    content: { "application/json": { schema, example: { ok: false, error_code: codes[0], error_message: "…" } } },
  };
}

function parameters(profile: Profile, op: Operation): Json[] {
  const out: Json[] = [];
  if (op.pathId) {
    const what = op.pathId === "product" ? "product id" : "order_id";
    out.push({
      name: "id",
      in: "path",
      required: true,
      description: `${what}; not a positive integer: 400 bad_request`,
      schema: { type: "integer", minimum: 1, maximum: INT4_MAX },
    });
  }
  if (op.query) {
    const strict = profile === "P" ? "out of range or malformed: 400 bad_request (D10)" : "clamped; malformed means the default (D10)";
    out.push(
      {
        name: "page",
        in: "query",
        description: `default 1; ${strict}`,
        schema: { type: "integer", minimum: 1, maximum: PAGE_MAX, default: 1 },
      },
      {
        name: "page_size",
        in: "query",
        description: `default ${PAGE_SIZE_DEFAULT}; ${strict}`,
        schema: { type: "integer", minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT },
      },
    );
    if (op.query === "products") {
      out.push(
        {
          name: "include_inactive",
          in: "query",
          description: `true, false, 1 or 0; ${strict}`,
          schema: { type: "string", enum: ["true", "false", "1", "0"], default: "false" },
        },
        {
          name: "updated_after",
          in: "query",
          description:
            "Extension (incremental sync): only products whose updated_at is after this time, by (updated_at, id), with sync_token; " +
            "RFC 3339 or Unix seconds. " +
            (profile === "P" ? "Malformed: 400 bad_request." : "Malformed: ignored."),
          schema: { type: "string", examples: ["2026-11-22T08:00:00.000Z", "1795334400"] },
        },
      );
    }
  }
  if (op.query === "statement") {
    // docs/decisions/0019-balance-statement.md: from inclusive, to exclusive.
    const strict = profile === "P" ? "malformed, or from later than to: 400 bad_request" : "malformed: ignored";
    const time = { type: "string", examples: ["2026-11-22T08:00:00+08:00", "1795305600"] };
    out.push(
      {
        name: "from",
        in: "query",
        description: `created_at at or after this: RFC 3339 with an offset, or Unix seconds; ${strict}`,
        schema: time,
      },
      {
        name: "to",
        in: "query",
        description: `created_at before this (exclusive): RFC 3339 with an offset, or Unix seconds; ${strict}`,
        schema: time,
      },
    );
  }
  return out;
}

function operationObject(profile: Profile, prefix: string, op: Operation): Json {
  const responses: Json = {};
  if (op.success) {
    responses["200"] = {
      description: "Success (D2): a flat object, `ok: true` first",
      headers: requestIdHeader,
      content: { "application/json": { schema: { $ref: `#/components/schemas/${componentName(profile, op)}` } } },
    };
  }
  for (const [status, codes] of errorsOf(profile, op)) responses[String(status)] = errorResponse(codes, status);
  const alt = prefix.startsWith("/v1/");
  const o: Json = {
    tags: [PROFILE_TAG[profile]],
    operationId: `${profile === "U" ? "upstream" : "provider"}${alt ? "Alt" : ""}_${op.key}`,
    summary: op.summary,
    description: `Profile ${profile}${alt ? " (alternate prefix: sign the /v1/... path you request)" : ""}. Guide: /docs/files/protocol.md (section: ${op.guide}).`,
    security: SECURITY,
    parameters: parameters(profile, op),
    responses,
  };
  if (op.body) {
    const name = op.key === "createOrder" ? `CreateOrderBody${profile}` : undefined;
    const schema = name ? { $ref: `#/components/schemas/${name}` } : schemaOf(op.body.schema, "input");
    const strict =
      profile === "P"
        ? " Profile P is strict: unknown top-level fields are 400 bad_request, duplicate keys 400 invalid_json (D17)."
        : " Unknown top-level fields are ignored.";
    o.requestBody = {
      required: op.body.required,
      description: `JSON object; the exact bytes are signed.${strict}`,
      content: { "application/json": { schema, ...exampleFor(op) } },
    };
  }
  return o;
}

function exampleFor(op: Operation): Json {
  if (op.key === "createOrder") return { example: { downstream_order_no: "DS-20261121-0001", sku_id: 12, quantity: 1, trace_id: "t-1" } };
  if (op.key === "putCatalogWebhook") return { example: { url: "https://shop.example/hooks/catalog" } };
  return { example: {} };
}

const componentName = (profile: Profile, op: Operation) =>
  op.key.startsWith("ping")
    ? "Account"
    : op.key === "listCategories"
      ? "Categories"
      : `${op.key[0].toUpperCase()}${op.key.slice(1)}Response${profile}`;

function components(): Json {
  const schemas: Json = {
    ErrorBody: schemaOf(ErrorBodySchema, "output"),
    OrderCallback: schemaOf(OrderCallbackSchema, "output"),
    CatalogEvent: schemaOf(CatalogEventSchema, "output"),
  };
  for (const profile of ["U", "P"] as const) {
    for (const op of operations(profile)) {
      if (op.success) schemas[componentName(profile, op)] = schemaOf(op.success, "output");
      if (op.key === "createOrder" && op.body) schemas[`CreateOrderBody${profile}`] = schemaOf(op.body.schema, "input");
    }
  }
  return {
    schemas,
    securitySchemes: {
      SvcApiKey: { type: "apiKey", in: "header", name: HEADER_API_KEY, description: "Your API key." },
      SvcTimestamp: { type: "apiKey", in: "header", name: HEADER_TIMESTAMP, description: "Unix seconds, within ±60 s of server time." },
      SvcSignature: { type: "apiKey", in: "header", name: HEADER_SIGNATURE, description: SIGNING_GUIDE },
      ...fulfillerSecurityScheme,
    },
    responses: {
      NotFound: {
        description: "404 `not_found`: no such endpoint under this prefix",
        content: { "application/json": { schema: schemaOf(errorBodySchema(["not_found"]), "output") } },
      },
      MethodNotAllowed: {
        description: "405 `method_not_allowed`: the endpoint exists but not with this method",
        content: { "application/json": { schema: schemaOf(errorBodySchema(["method_not_allowed"]), "output") } },
      },
    },
  };
}

let cached: OpenApiDocument | undefined;

/** The whole document: every endpoint under all four prefixes, tagged by profile. */
export function openApiDocument(): OpenApiDocument {
  if (cached) return cached;
  const paths: Json = {};
  for (const profile of ["U", "P"] as const) {
    for (const prefix of PROFILE_PREFIXES[profile]) {
      for (const op of operations(profile)) {
        const item = (paths[prefix + op.path] ??= {}) as Json;
        item[op.method] = operationObject(profile, prefix, op);
      }
    }
  }
  Object.assign(paths, fulfillerPaths()); // issue 39
  cached = {
    openapi: "3.1.1",
    info: { title: "Card-key supplier interface", version: PROTOCOL_VERSION, description: GUIDE_MARKDOWN },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    tags: [
      { name: PROFILE_TAG.U, description: `Callbacks, lenient validation: \`${PROFILE_PREFIXES.U[0]}\` and \`${PROFILE_PREFIXES.U[1]}\`.` },
      {
        name: PROFILE_TAG.P,
        description: `Polling, strict validation, replay protection: \`${PROFILE_PREFIXES.P[0]}\` and \`${PROFILE_PREFIXES.P[1]}\`.`,
      },
      fulfillerTag,
    ],
    paths,
    webhooks: {
      fulfillerOrderWaiting: fulfillerWebhook,
      orderUpdated: {
        post: {
          summary: "Profile U callback: order.updated (section 6, D26–D28)",
          description: "Signed like a request, over the callback URL's path. Verify before acting.",
          security: SECURITY,
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/OrderCallback" } } } },
          responses: { "200": { description: "Any 2xx within 10 s acknowledges the callback." } },
        },
      },
      catalogUpdated: {
        post: {
          summary: "Profile U extension: catalog.updated, to the key's catalogue webhook (issue 12.2)",
          description:
            "Signed like an order callback (D27) with the key's secret over the webhook URL's path; retried on the D28 schedule. At most one event per key every CATALOG_EVENT_INTERVAL_SECONDS (10 s), at most 500 products each. Guide: /docs/files/protocol.md (section: catalogue-events).",
          security: SECURITY,
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/CatalogEvent" } } } },
          responses: { "200": { description: "Any 2xx within 10 s acknowledges the event." } },
        },
      },
    },
    components: components(),
  };
  return cached;
}
