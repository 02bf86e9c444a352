import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { MAX_BODY_BYTES } from "@/lib/protocol/headers";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer, makeProduct } from "@/lib/testing/factories";
import { servedIn, SUPPLIER_ENDPOINTS } from "@/lib/testing/endpoint-samples";
import { rawRequest, signedRawRequest, type Creds } from "@/lib/testing/test-client";
import type { AnyAnswer } from "@/lib/testing/wire-types";
import { anyNumber, anyString } from "@/lib/testing/matchers";

// The HTTP edge over real HTTP: the four prefixes and their route files,
// X-Request-Id (D1), the body limit while streaming (D30), replay (D8),
// strict JSON (D17) and what the log may never contain.

let server: AppServer;
let buyer: Creds & { id: number };
const FORM_VALUE = "FORM-VALUE-do-not-log-4711";

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer();
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

describe("the four prefixes expose the same endpoints (section 4 and the extensions)", () => {
  it("decision 0036: Next has one route for the supplier API, the catch-all that hands every request to the router", () => {
    const routes: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else if (entry.name === "route.ts") routes.push(path.join(dir, entry.name));
      }
    };
    walk("app/api/v1");
    expect(routes).toEqual([path.join("app/api/v1/[profile]/[[...rest]]/route.ts")]);
  });

  it("every endpoint answers under every prefix with its JSON (not the router's 404/405)", async () => {
    for (const endpoint of SUPPLIER_ENDPOINTS) {
      const statuses = new Set<string>();
      for (const { prefix, profile } of ALL_PREFIXES) {
        const res = await signedRawRequest(server.baseUrl, buyer, {
          method: endpoint.method,
          path: prefix + endpoint.path,
          body: endpoint.body(crypto.randomUUID()) || undefined,
        });
        expect(res.headers["content-type"], `${endpoint.name} ${prefix}`).toBe("application/json; charset=utf-8");
        const body = res.json<AnyAnswer>();
        // A one-profile extension (issue 12.2) does not exist under the other profile's prefixes.
        if (servedIn(endpoint, profile)) expect(body.error_code, `${endpoint.name} ${prefix}`).not.toBe("not_found");
        else expect([res.status, body.error_code], `${endpoint.name} ${prefix}`).toEqual([404, "not_found"]);
        statuses.add(`${prefix.includes("provider") ? "P" : "U"}:${res.status}`);
      }
      // Both prefixes of one profile answer alike.
      expect(statuses.size, `${endpoint.name}: ${[...statuses].join(",")}`).toBeLessThanOrEqual(2);
    }
  });

  it("req.url keeps the /v1/... path after the rewrite: the signature covers the path the client sent", async () => {
    const ok = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/v1/provider/ping" });
    expect(ok.status).toBe(200);
    const rewrittenPath = await signedRawRequest(server.baseUrl, buyer, {
      method: "GET",
      path: "/v1/provider/ping",
      signPath: "/api/v1/provider/ping",
    });
    expect(rewrittenPath.status).toBe(401);
  });

  it("an unknown profile segment is 404 under both prefixes", async () => {
    for (const path of ["/api/v1/downstream/ping", "/api/v1/UPSTREAM/ping"]) {
      const res = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path });
      expect(res.status, path).toBe(404);
      expect(res.json<AnyAnswer>().error_code).toBe("not_found");
    }
    expect((await rawRequest(server.baseUrl, { method: "GET", path: "/v1/downstream/ping" })).status).toBe(404);
  });
});

describe("wrapper rules over HTTP", () => {
  it("every response carries a fresh X-Request-Id, success and error alike (D1)", async () => {
    const a = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/api/v1/upstream/ping" });
    const b = await signedRawRequest(server.baseUrl, { ...buyer, apiSecret: "wrong" }, { method: "GET", path: "/api/v1/upstream/ping" });
    expect(a.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
    // The server logs the line before it answers, but the line reaches this
    // process through the server's stdout pipe, which can lag behind the socket.
    await expect.poll(() => server.output(), { timeout: 5000 }).toContain(a.headers["x-request-id"]);
  });

  it("D30: a chunked body over 1 MiB is refused with 413 while streaming; exactly 1 MiB passes the limit", async () => {
    for (const { prefix } of ALL_PREFIXES) {
      const big = await signedRawRequest(server.baseUrl, buyer, {
        method: "POST",
        path: `${prefix}/ping`,
        body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20),
        chunked: true,
      });
      expect(big.status, prefix).toBe(413);
      expect(big.json()).toEqual({ ok: false, error_code: "request_too_large", error_message: anyString() });
    }
    const exact = await signedRawRequest(server.baseUrl, buyer, {
      method: "POST",
      path: "/v1/upstream/ping",
      body: Buffer.alloc(MAX_BODY_BYTES, 0x20),
    });
    expect(exact.status).toBe(200);
  });

  it("D6: header names are case-insensitive", async () => {
    const ts = String(Math.floor(Date.now() / 1000) - 40);
    const { signRequest } = await import("@/lib/protocol/signing");
    const signature = signRequest({ method: "GET", path: "/api/v1/upstream/ping", timestamp: ts, secret: buyer.apiSecret });
    const res = await rawRequest(server.baseUrl, {
      method: "GET",
      path: "/api/v1/upstream/ping",
      headers: { "svc-api-key": buyer.apiKey, "SVC-TIMESTAMP": ts, "sVc-SiGnAtUrE": signature },
    });
    expect(res.status).toBe(200);
  });

  it("D7: the size limit comes first: an oversize request without any credentials is 413, not 401", async () => {
    const res = await rawRequest(server.baseUrl, {
      method: "POST",
      path: "/v1/provider/orders",
      body: Buffer.alloc(MAX_BODY_BYTES + 10, 0x20),
    });
    expect(res.status).toBe(413);
    expect(res.json<AnyAnswer>().error_code).toBe("request_too_large");
  });

  it("D30: a declared Content-Length over the limit is refused before the body is read", async () => {
    const res = await signedRawRequest(server.baseUrl, buyer, {
      method: "POST",
      path: "/api/v1/provider/ping",
      body: "{}",
      headers: { "Content-Length": String(MAX_BODY_BYTES + 1) },
    });
    expect(res.status).toBe(413);
  });

  // Explicit timestamps in the past, so no earlier request of this file used them.
  it("D8: Profile P answers a repeated signed request with 409 replay_detected; Profile U has no replay rule", async () => {
    const timestamp = Math.floor(Date.now() / 1000) - 30;
    for (const prefix of ["/api/v1/provider", "/v1/provider"]) {
      const first = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: `${prefix}/categories`, timestamp });
      expect(first.status).toBe(200);
      const again = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: `${prefix}/categories`, timestamp });
      expect(again.status).toBe(409);
      expect(again.json()).toEqual({ ok: false, error_code: "replay_detected", error_message: anyString() });
    }
    for (const prefix of ["/api/v1/upstream", "/v1/upstream"]) {
      for (let i = 0; i < 2; i++) {
        expect((await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: `${prefix}/categories`, timestamp })).status).toBe(
          200,
        );
      }
    }
  });

  it("D8 (docs/decisions/0010-replay-identity-includes-query.md): the query string is part of the replay identity, so pages of one second are not replays", async () => {
    const timestamp = Math.floor(Date.now() / 1000) - 32;
    const page = (n: number) =>
      signedRawRequest(server.baseUrl, buyer, { method: "GET", path: `/api/v1/provider/products?page=${n}`, timestamp });
    expect((await page(1)).status).toBe(200);
    expect((await page(2)).status).toBe(200);
    expect((await page(1)).status).toBe(409);
  });

  it("D8: a request refused before it was processed (bad signature) does not burn its replay record", async () => {
    const timestamp = Math.floor(Date.now() / 1000) - 31;
    const bad = await signedRawRequest(
      server.baseUrl,
      { ...buyer, apiSecret: "nope" },
      { method: "GET", path: "/api/v1/provider/products", timestamp },
    );
    expect(bad.status).toBe(401);
    expect((await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/api/v1/provider/products", timestamp })).status).toBe(
      200,
    );
  });

  it("D17 strict JSON on a body endpoint: P duplicate key or broken JSON → invalid_json, array → bad_request; U → bad_request", async () => {
    const post = (prefix: string, body: string) =>
      signedRawRequest(server.baseUrl, buyer, { method: "POST", path: `${prefix}/orders`, body });
    expect((await post("/api/v1/provider", '{"sku_id":1,"sku_id":2}')).json<AnyAnswer>().error_code).toBe("invalid_json");
    expect((await post("/v1/provider", '{"sku_id":')).json<AnyAnswer>().error_code).toBe("invalid_json");
    expect((await post("/api/v1/provider", "[]")).json<AnyAnswer>().error_code).toBe("bad_request");
    expect((await post("/api/v1/upstream", '{"sku_id":')).json<AnyAnswer>().error_code).toBe("bad_request");
  });
});

describe("logs", () => {
  it("one line per request with request id, profile, endpoint, status, duration and credential id", async () => {
    const res = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/v1/provider/products?page_size=3" });
    const id = res.headers["x-request-id"] as string;
    await new Promise((r) => setTimeout(r, 100));
    const line = server
      .output()
      .split("\n")
      .find((l) => l.includes(id));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      requestId: id,
      profile: "P",
      endpoint: "products.list",
      status: 200,
      credentialId: buyer.id,
      durationMs: anyNumber(),
    });
  });

  it("never contains the API secret, a signature, a card key or a form value", async () => {
    const { sku } = await makeProduct({
      fulfillmentType: "manual",
      stockQuantity: 10,
      manualFormSchema: { fields: [{ key: "uid", type: "text", label: { "zh-CN": "UID", en: "UID" }, required: true, max_len: 8 }] },
    });
    await makeProduct({ cardKeys: ["EDGE-CARD-KEY-SECRET-1"] });
    // A valid manual order and an invalid one (value too long) carrying the form value.
    for (const [n, uid] of [
      [1, "abc"],
      [2, FORM_VALUE],
    ] as const) {
      await signedRawRequest(server.baseUrl, buyer, {
        method: "POST",
        path: "/api/v1/provider/orders",
        body: JSON.stringify({ downstream_order_no: `LOG-${n}-${Date.now()}`, sku_id: sku.id, quantity: 1, manual_form_data: { uid } }),
      });
    }
    await new Promise((r) => setTimeout(r, 100));
    const out = server.output();
    expect(out).not.toContain(buyer.apiSecret);
    expect(out).not.toMatch(/[0-9a-fA-F]{64}/);
    expect(out).not.toContain("EDGE-CARD-KEY-SECRET-1");
    expect(out).not.toContain(FORM_VALUE);
    expect(out).not.toContain('"uid":"abc"');
  });
});
