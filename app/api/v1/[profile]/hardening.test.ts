import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "@/lib/testing/factories";
import { rawRequest, signedRawRequest, type RawResponse } from "@/lib/testing/test-client";
import type { AnyAnswer } from "@/lib/testing/wire-types";
import { anyString } from "@/lib/testing/matchers";

// Issue 8, items 1, 2 and 7 (D23) over real HTTP against the real server.

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let seq = 0;
const no = () => `H-${Date.now()}-${++seq}`;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 1_000_000n });
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

function expectD1(res: RawResponse, status: number, code: string, what: string) {
  expect(res.status, what).toBe(status);
  expect(res.headers["content-type"], what).toBe("application/json; charset=utf-8");
  expect(res.headers["x-request-id"], what).toMatch(/^[0-9a-f-]{36}$/);
  if (res.status !== 204 && !what.startsWith("HEAD"))
    expect(res.json(), what).toEqual({ ok: false, error_code: code, error_message: anyString() });
}

describe("issue 8.1: every request under the four prefixes gets a D1 answer", () => {
  it("issue 8.1: an unknown path is 404 not_found with the D1 body and X-Request-Id under all four prefixes, signed or not", async () => {
    for (const { prefix } of ALL_PREFIXES) {
      for (const [method, path] of [
        ["GET", "/order/1"],
        ["GET", "/nope"],
        ["POST", "/nope/deeper/still"],
        ["DELETE", "/orders/1/cancel/again"],
        ["GET", ""],
        ["PUT", "/products/1/skus"],
      ]) {
        const what = `${method} ${prefix}${path}`;
        expectD1(await rawRequest(server.baseUrl, { method, path: prefix + path }), 404, "not_found", what);
        expectD1(await signedRawRequest(server.baseUrl, buyer, { method, path: prefix + path }), 404, "not_found", `${what} (signed)`);
      }
    }
  });

  it("issue 8.1: a known path with another method is 405 method_not_allowed with Allow, before authentication, under all four prefixes", async () => {
    const cases: [string, string, string][] = [
      ["GET", "/orders", "POST"],
      ["PUT", "/orders", "POST"],
      ["DELETE", "/orders/1", "GET, HEAD"],
      ["POST", "/products", "GET, HEAD"],
      ["POST", "/products/1", "GET, HEAD"],
      ["PATCH", "/ping", "GET, HEAD, POST"],
      ["OPTIONS", "/categories", "GET, HEAD"],
      ["GET", "/orders/1/cancel", "POST"],
      ["HEAD", "/orders", "POST"],
    ];
    for (const { prefix } of ALL_PREFIXES) {
      for (const [method, path, allow] of cases) {
        const what = `${method} ${prefix}${path}`;
        for (const res of [
          await rawRequest(server.baseUrl, { method, path: prefix + path }),
          await signedRawRequest(server.baseUrl, buyer, { method, path: prefix + path }),
        ]) {
          expectD1(res, 405, "method_not_allowed", what);
          expect(res.headers.allow, what).toBe(allow);
        }
      }
    }
  });

  it("issue 8.1: an unknown profile segment stays 404 not_found for any method, known endpoint or not", async () => {
    for (const [method, path] of [
      ["PUT", "/api/v1/downstream/orders"],
      ["GET", "/api/v1/downstream/nope"],
    ]) {
      expectD1(await rawRequest(server.baseUrl, { method, path }), 404, "not_found", `${method} ${path}`);
    }
  });
});

describe("issue 8.2: text PostgreSQL cannot store is 400 bad_request naming the field, never 500", () => {
  const NUL = "\u0000";
  const LONE = "\uD800";
  it("issue 8.2: NUL or a lone surrogate in downstream_order_no, trace_id, a form value or key, or callback_url (both profiles)", async () => {
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("HKEY", 2) });
    const manual = await makeProduct({
      fulfillmentType: "manual",
      stockQuantity: 10,
      manualFormSchema: { fields: [{ key: "uid", type: "text", label: { "zh-CN": "UID", en: "UID" }, required: false, max_len: 40 }] },
    });
    const before = await db().order.count();
    for (const bad of [NUL, LONE, "\uDC00x"]) {
      const cases: [string, object, string][] = [
        ["provider", { downstream_order_no: `a${bad}b`, sku_id: sku.id, quantity: 1 }, "downstream_order_no"],
        ["provider", { downstream_order_no: no(), sku_id: sku.id, quantity: 1, trace_id: `t${bad}` }, "trace_id"],
        [
          "provider",
          { downstream_order_no: no(), sku_id: manual.sku.id, quantity: 1, manual_form_data: { uid: `u${bad}` } },
          "manual_form_data.uid",
        ],
        [
          "provider",
          { downstream_order_no: no(), sku_id: manual.sku.id, quantity: 1, manual_form_data: { [`k${bad}`]: "v" } },
          "manual_form_data",
        ],
        ["upstream", { downstream_order_no: `a${bad}b`, sku_id: sku.id, quantity: 1 }, "downstream_order_no"],
        ["upstream", { downstream_order_no: no(), sku_id: sku.id, quantity: 1, trace_id: `t${bad}` }, "trace_id"],
        [
          "upstream",
          { downstream_order_no: no(), sku_id: sku.id, quantity: 1, callback_url: `https://93.184.216.34/${bad}` },
          "callback_url",
        ],
        [
          "upstream",
          { downstream_order_no: no(), sku_id: manual.sku.id, quantity: 1, manual_form_data: { uid: [`u${bad}`] } },
          "manual_form_data.uid.0",
        ],
      ];
      for (const [profile, body, field] of cases) {
        const what = `${profile} ${field} ${JSON.stringify(bad)}`;
        for (const prefix of [`/api/v1/${profile}`, `/v1/${profile}`]) {
          const res = await signedRawRequest(server.baseUrl, buyer, {
            method: "POST",
            path: `${prefix}/orders`,
            body: JSON.stringify(body),
          });
          expectD1(res, 400, "bad_request", what);
          expect(res.json<AnyAnswer>().error_message, what).toContain(`"${field}"`);
          expect(res.text, what).not.toMatch(/\\u0000|\\ud800|\\udc00/i);
        }
      }
    }
    expect(await db().order.count()).toBe(before);
    // A well-formed pair of surrogates (an emoji) is ordinary text.
    const ok = await signedRawRequest(server.baseUrl, buyer, {
      method: "POST",
      path: "/api/v1/provider/orders",
      body: JSON.stringify({ downstream_order_no: `emoji-\u{1F600}-${no()}`, sku_id: sku.id, quantity: 1, trace_id: "\u{1F600}" }),
    });
    expect(ok.status).toBe(200);
  });

  it("issue 8.2: NUL in a products query parameter is 400 in P and the default in U", async () => {
    const p = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/api/v1/provider/products?page=%00" });
    expectD1(p, 400, "bad_request", "P page=%00");
    expect(p.json<AnyAnswer>().error_message).toContain("page");
    expect(
      (await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/api/v1/upstream/products?page=%00&x=%00" })).status,
    ).toBe(200);
  });
});

describe("issue 8.7 (D23): Profile U ignores cancel bodies", () => {
  it("issue 8.7: a U cancel with a body that is not JSON is 409 cancel_not_allowed (404 for a foreign order); P still refuses it", async () => {
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("CKEY", 1) });
    const created = await signedRawRequest(server.baseUrl, buyer, {
      method: "POST",
      path: "/api/v1/upstream/orders",
      body: JSON.stringify({ downstream_order_no: no(), sku_id: sku.id, quantity: 1 }),
    });
    const path = `/orders/${created.json<{ order_id: number }>().order_id}/cancel`;
    for (const prefix of ["/api/v1/upstream", "/v1/upstream"]) {
      for (const body of ["not json", "[1,", "[1,2]", '{"reason":"x"}', "\u0000"]) {
        expectD1(
          await signedRawRequest(server.baseUrl, buyer, { method: "POST", path: prefix + path, body }),
          409,
          "cancel_not_allowed",
          `${prefix} ${body}`,
        );
      }
      const other = await makeBuyer();
      expectD1(
        await signedRawRequest(server.baseUrl, other, { method: "POST", path: prefix + path, body: "not json" }),
        404,
        "order_not_found",
        prefix,
      );
    }
    const p = await signedRawRequest(server.baseUrl, buyer, { method: "POST", path: `/api/v1/provider${path}`, body: "not json" });
    expect(p.json<AnyAnswer>().error_code).toBe("invalid_json");
  });
});
