// Issue 39: the fulfiller API's paths in the served OpenAPI document, beside
// the supplier API's, made from its wire schemas (../fulfiller-wire.ts).
import { z } from "zod";
import {
  ClaimAnswerSchema,
  ClaimBodySchema,
  DeliverAnswerSchema,
  DeliverBodySchema,
  FailAnswerSchema,
  FailBodySchema,
  OrderWaitingEventSchema,
  WaitingOrdersSchema,
} from "../fulfiller-wire";
import { errorBodySchema } from "../wire-responses";

type Json = Record<string, unknown>;
export const FULFILLER_TAG = "Fulfiller";
export const fulfillerTag = {
  name: FULFILLER_TAG,
  description: "An operator's own script delivering manual orders (issue 39): a bearer token, leases, Idempotency-Key.",
};
const PREFIX = "/api/fulfiller/v1";
const SECURITY = [{ FulfillerBearer: [] }];
const GUIDE = "Guide: /docs/files/fulfiller.md.";

const schemaOf = (schema: z.ZodType, io: "input" | "output"): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json;
  return rest;
};
const json = (schema: z.ZodType, io: "input" | "output") => ({ "application/json": { schema: schemaOf(schema, io) } });

function errors(byStatus: Record<number, string[]>): Json {
  const all: Record<number, string[]> = { 401: ["unauthorized"], ...byStatus };
  return Object.fromEntries(
    Object.entries(all).map(([status, codes]) => [
      status,
      { description: codes.map((c) => `\`${c}\``).join(", "), content: json(errorBodySchema(codes as never), "output") },
    ]),
  );
}

const orderNo = { name: "order_no", in: "path", required: true, schema: { type: "string", minLength: 1, maxLength: 64 } };
const idempotencyKey = {
  name: "Idempotency-Key",
  in: "header",
  description: "The same key and body again: the same answer, nothing changes; the same key with another body: 409 idempotency_conflict.",
  schema: { type: "string", pattern: "^[\\x21-\\x7e]{1,200}$" },
};

function post(summary: string, body: z.ZodType, answer: z.ZodType, extra: Record<number, string[]>): Json {
  const operation = {
    tags: [FULFILLER_TAG],
    summary,
    description: GUIDE,
    security: SECURITY,
    parameters: [orderNo, idempotencyKey],
    requestBody: { required: true, content: json(body, "input") },
    responses: {
      "200": { description: "Done", content: json(answer, "output") },
      ...errors({ 400: ["bad_request", "invalid_json"], 404: ["order_not_found"], 413: ["request_too_large"], ...extra }),
    },
  };
  return { post: operation };
}

/** The fulfiller paths, keyed as the document's `paths`. */
export function fulfillerPaths(): Json {
  return {
    [`${PREFIX}/orders`]: {
      get: {
        tags: [FULFILLER_TAG],
        summary: "The manual orders waiting in the token's scope, oldest first, without those another token leases",
        description: GUIDE,
        security: SECURITY,
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } }],
        responses: {
          "200": { description: "Waiting orders", content: json(WaitingOrdersSchema, "output") },
          ...errors({ 400: ["bad_request"] }),
        },
      },
    },
    [`${PREFIX}/orders/{order_no}/claim`]: post("Lease an order (again with the same token: extend)", ClaimBodySchema, ClaimAnswerSchema, {
      409: ["order_leased", "order_final", "invalid_transition", "idempotency_conflict"],
    }),
    [`${PREFIX}/orders/{order_no}/deliver`]: post("Deliver a leased order, as the console does", DeliverBodySchema, DeliverAnswerSchema, {
      409: ["lease_required", "order_final", "invalid_transition", "idempotency_conflict"],
    }),
    [`${PREFIX}/orders/{order_no}/fail`]: post("Fail a leased order: refunded, as the console does", FailBodySchema, FailAnswerSchema, {
      409: ["lease_required", "order_final", "invalid_transition", "idempotency_conflict"],
    }),
  };
}

export const fulfillerSecurityScheme = {
  FulfillerBearer: {
    type: "http",
    scheme: "bearer",
    description: "A fulfiller token (fulfiller:create, or the console's Fulfillers page).",
  },
};

export const fulfillerWebhook = {
  post: {
    tags: [FULFILLER_TAG],
    summary: "order.waiting, to a fulfiller token's webhook (issue 39)",
    description: `Signed as catalogue events are (Svc-Api-Key \`fulfiller-<token id>\`, HMAC-SHA256 with the token's webhook_secret over the webhook URL's path), retried on the same schedule. ${GUIDE}`,
    requestBody: { required: true, content: json(OrderWaitingEventSchema, "output") },
    responses: { "200": { description: "Any 2xx within 10 s acknowledges the event." } },
  },
};
