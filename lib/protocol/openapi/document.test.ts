import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { ALL_PREFIXES } from "../profiles";
import { responseChecker } from "./check-response";
import { openApiDocument } from "./document";
import { operations } from "./operations";

// Issue 11.1: the OpenAPI document, generated from the zod wire schemas.

const doc = openApiDocument();
/**
 * The value at these keys of a JSON value. Like `a.b.c` it throws when a key
 * before the last finds no object, naming where; the last may be missing.
 */
function at(value: unknown, ...keys: (string | number)[]): unknown {
  let v = value;
  for (const [i, k] of keys.entries()) {
    if (v === null || typeof v !== "object") throw new TypeError(`nothing at ${keys.slice(0, i).join(" > ")} to read ${k} from`);
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}
const okError = (code: string) => JSON.stringify({ ok: false, error_code: code, error_message: "m" });

describe("issue 11.1: the OpenAPI document", () => {
  it("validates as OpenAPI 3.1 with a maintained third-party validator, which rejects a broken copy", async () => {
    const v = new Validator();
    const result = await v.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const broken = structuredClone(doc);
    (at(broken, "paths", "/api/v1/provider/ping", "get") as Record<string, unknown>).parameters = [{ name: "x", in: "body" }];
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("lists every endpoint under all four prefixes, tagged by profile, signed with the three Svc-* headers", () => {
    for (const { profile, prefix } of ALL_PREFIXES) {
      for (const op of operations(profile)) {
        const o = (at(doc, "paths", prefix + op.path) as Record<string, unknown> | undefined)?.[op.method];
        expect(o, `${op.method} ${prefix}${op.path}`).toBeDefined();
        expect(at(o, "tags")).toEqual([`Profile ${profile}`]);
        expect(at(o, "security")).toEqual([{ SvcApiKey: [], SvcTimestamp: [], SvcSignature: [] }]);
      }
    }
    // the seven of section 4, the balance statement (0019), after-sales (0043), the Profile U catalogue webhook (0022); the fulfiller API's four (issue 39)
    expect(Object.keys(at(doc, "paths") as object)).toHaveLength(4 * 9 + 2 + 4);
    expect(Object.values(at(doc, "components", "securitySchemes") as object).map((s) => (s as { name?: string }).name)).toEqual([
      "Svc-Api-Key",
      "Svc-Timestamp",
      "Svc-Signature",
      undefined, // issue 39: the fulfiller token, an HTTP bearer scheme
    ]);
    expect(at(doc, "components", "securitySchemes", "SvcSignature", "description")).toMatch(/HMAC-SHA256[\s\S]*signature\s+[0-9a-f]{64}/);
  });

  it("issue 39: the fulfiller paths sit beside the supplier API, with their bearer token, Idempotency-Key and 409 codes", () => {
    const claim = at(doc, "paths", "/api/fulfiller/v1/orders/{order_no}/claim", "post");
    expect(at(claim, "security")).toEqual([{ FulfillerBearer: [] }]);
    expect(JSON.stringify(at(claim, "parameters"))).toContain("Idempotency-Key");
    expect(JSON.stringify(at(claim, "responses", "409"))).toMatch(/order_leased/);
    expect(JSON.stringify(at(doc, "paths", "/api/fulfiller/v1/orders/{order_no}/deliver", "post", "responses", "409"))).toMatch(
      /lease_required/,
    );
    expect(at(doc, "paths", "/api/fulfiller/v1/orders", "get")).toBeDefined();
    expect(at(doc, "webhooks", "fulfillerOrderWaiting", "post")).toBeDefined();
  });

  it("D17: Profile P request bodies forbid unknown fields; Profile U's do not", () => {
    const schemas = at(doc, "components", "schemas");
    expect(at(schemas, "CreateOrderBodyP", "additionalProperties")).toBe(false);
    expect(at(schemas, "CreateOrderBodyU", "additionalProperties")).toBeUndefined();
    expect(at(schemas, "CreateOrderBodyU", "properties", "callback_url")).toBeDefined();
    expect(at(schemas, "CreateOrderBodyP", "properties", "callback_url")).toBeUndefined();
  });

  it("issue 26.3 (decision 0043): the after-sales extension is documented in both profiles with its D1 409 codes", () => {
    for (const prefix of ["/api/v1/upstream", "/v1/provider"]) {
      const path = at(doc, "paths", `${prefix}/orders/{id}/after-sales`);
      expect(at(path, "get")).toBeDefined();
      expect(JSON.stringify(at(path, "post", "responses", "409"))).toMatch(/after_sales_closed[\s\S]*line_already_claimed/);
    }
    expect(
      at(
        doc,
        "paths",
        "/v1/provider/orders/{id}/after-sales",
        "post",
        "requestBody",
        "content",
        "application/json",
        "schema",
        "additionalProperties",
      ),
    ).toBe(false); // D17
  });

  it("D3: amounts are strings with a two-decimal pattern (issue 38: a balance is signed, negative on a credit line)", () => {
    const balance = at(doc, "components", "schemas", "Account", "properties", "balance");
    expect(balance).toMatchObject({ type: "string", pattern: "^-?[0-9]{1,15}\\.[0-9]{2}$" });
    const limit = at(doc, "components", "schemas", "Account", "properties", "credit_limit");
    expect(limit).toMatchObject({ type: "string", pattern: "^[0-9]{1,15}\\.[0-9]{2}$" });
  });

  it("extension (docs/decisions/0019, 0094): the statement's amounts and balance are signed (credit), its credit_limit is not; from/to only on the statement", () => {
    const item = at(doc, "components", "schemas", "GetStatementResponseP", "properties", "items", "items");
    expect(at(item, "properties", "amount", "pattern")).toBe("^-?[0-9]{1,15}\\.[0-9]{2}$");
    expect(at(doc, "components", "schemas", "GetStatementResponseU", "properties", "balance", "pattern")).toBe(
      "^-?[0-9]{1,15}\\.[0-9]{2}$",
    );
    expect(at(doc, "components", "schemas", "GetStatementResponseU", "properties", "credit_limit", "pattern")).toBe(
      "^[0-9]{1,15}\\.[0-9]{2}$",
    );
    const names = (path: string) => (at(doc, "paths", path, "get", "parameters") as { name: string }[]).map((p) => p.name);
    expect(names("/v1/provider/statement")).toEqual(["page", "page_size", "from", "to"]);
    expect(names("/api/v1/upstream/products")).toEqual(["page", "page_size", "include_inactive", "updated_after"]); // issue 12.1
  });

  it("D1/D11/D23/D8: each error code is listed with its status per endpoint, not_found and method_not_allowed included", () => {
    const codes = (path: string, method: string, status: number) =>
      at(doc, "paths", path, method, "responses", status, "content", "application/json", "schema", "properties", "error_code", "enum");
    expect(codes("/api/v1/provider/products/{id}", "get", 404)).toEqual(["product_not_found"]);
    expect(codes("/v1/upstream/products/{id}", "get", 404)).toEqual(["product_unavailable"]);
    expect(codes("/api/v1/provider/orders/{id}/cancel", "post", 409)).toEqual(["replay_detected", "cancel_not_allowed"]);
    expect(codes("/api/v1/provider/orders", "post", 403)).toEqual(["points_disabled"]);
    expect(at(doc, "paths", "/api/v1/upstream/orders", "post", "responses", "403")).toBeUndefined();
    expect(at(doc, "paths", "/api/v1/upstream/ping", "get", "responses", "429", "headers", "Retry-After")).toBeDefined();
    const errorCodes = (response: string) =>
      at(doc, "components", "responses", response, "content", "application/json", "schema", "properties", "error_code", "enum");
    expect(errorCodes("NotFound")).toEqual(["not_found"]);
    expect(errorCodes("MethodNotAllowed")).toEqual(["method_not_allowed"]);
  });
});

describe("issue 11.1: the response check can fail", () => {
  const c = responseChecker();
  const ping = {
    ok: true,
    site_name: "s",
    provider_type: "SVC_KEY",
    protocol_version: "1.0",
    instance_id: "5b0e1a52-4c1e-4b8e-9f5e-2d7f6f0b1c3a",
    user_id: "5b0e1a52-4c1e-4b8e-9f5e-2d7f6f0b1c3b",
    balance: "10.00",
    currency: "CNY",
    member_level: { id: 1, slug: "default", name: { "zh-CN": "", en: "" } },
  };

  it("accepts a correct body and rejects an amount as a number, a missing field and an undocumented status", () => {
    const json = "application/json; charset=utf-8";
    expect(c.check("GET", "/api/v1/provider/ping", 200, json, JSON.stringify(ping)).problems).toEqual([]);
    expect(c.check("GET", "/v1/provider/ping", 200, json, JSON.stringify({ ...ping, balance: 10 })).problems.join()).toMatch(/balance/);
    const { user_id: _u, ...missing } = ping;
    expect(c.check("POST", "/api/v1/upstream/ping", 200, json, JSON.stringify(missing)).problems.join()).toMatch(/user_id/);
    expect(c.check("GET", "/api/v1/upstream/orders/5", 403, json, okError("points_disabled")).problems.join()).toMatch(/not documented/);
    expect(c.check("GET", "/api/v1/upstream/orders/5", 404, json, okError("product_not_found")).problems.join()).toMatch(/error_code/);
    expect(c.check("GET", "/api/v1/upstream/ping", 200, "text/html", JSON.stringify(ping)).problems.join()).toMatch(/Content-Type/);
  });

  it("checks unknown paths and methods under a prefix against not_found / method_not_allowed", () => {
    const json = "application/json";
    expect(c.check("GET", "/api/v1/provider/nope", 404, json, okError("not_found")).problems).toEqual([]);
    expect(c.check("DELETE", "/api/v1/provider/ping", 405, json, okError("method_not_allowed")).problems).toEqual([]);
    expect(c.check("GET", "/api/v1/provider/nope", 404, "text/html", "<html>").problems).not.toEqual([]);
    expect(c.check("GET", "/api/v1/provider/nope", 401, json, okError("unauthorized")).problems).toEqual([]);
    expect(c.check("GET", "/api/v1/provider/nope", 200, json, "{}").problems.join()).toMatch(/no documented operation/);
  });
});
