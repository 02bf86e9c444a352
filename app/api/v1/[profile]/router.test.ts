import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINT_LIST } from "@/lib/protocol/endpoints";
import { ALL_PREFIXES, PROFILE_PREFIXES } from "@/lib/protocol/profiles";
import { normalTarget } from "@/lib/supplier-api/router";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { SUPPLIER_ENDPOINTS, servedIn } from "@/lib/testing/endpoint-samples";
import { signedRawRequest, type RawResponse } from "@/lib/testing/test-client";
import { creds, ids, server, skuIds, useCatalogFixture } from "@/lib/testing/catalog-fixture";
import type { AnyAnswer } from "@/lib/testing/wire-types";
import { anyString } from "@/lib/testing/matchers";

// Issue 23, decision 0036: one router, built from the endpoint table
// (lib/protocol/endpoints.ts), answers every request under the four
// prefixes. Our server (`npm start`, lib/ops/http-server.ts) calls it without
// Next's router (decision 0023, for speed); Next's catch-all route calls it
// for `next start` and development. Both must answer alike.
useCatalogFixture();

let nextStart: AppServer;
beforeAll(async () => {
  // The same build and the same database (the fixture's), served by `next start` alone.
  nextStart = await startAppServer(process.env.DATABASE_URL!, {}, { nextStart: true });
});
afterAll(async () => {
  await nextStart?.stop();
});

// Next's router adds "Vary: rsc, next-router-state-tree, …" (its own page
// protocol, meaningless to an API client) to what a route answers; our server has none.
const NEXT_VARY = /next-router-state-tree/;
const NEXT_VARY_TOKENS = /^(rsc|next-router-state-tree|next-router-prefetch|next-router-segment-prefetch|next-url)$/i;
const VARYING = new Set(["date", "x-request-id", "connection", "keep-alive", "transfer-encoding", "content-length", "vary"]);
const stable = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([k]) => !VARYING.has(k)));
/** The Vary header as one line (Node gives a repeated header as an array). */
const varyOf = (headers: Record<string, unknown>) => {
  const v = headers.vary;
  return Array.isArray(v) ? v.join(",") : typeof v === "string" ? v : "";
};
/** Vary without Next's own tokens. */
const vary = (headers: Record<string, unknown>) =>
  varyOf(headers)
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t && !NEXT_VARY_TOKENS.test(t))
    .join(", ");
/** Answered by our server's router: without Next's Vary (a products page varies by Accept-Encoding only, issue 13.4). */
const dispatched = (res: { headers: Record<string, unknown> }) => !NEXT_VARY.test(varyOf(res.headers));
const send = (method: string, path: string, headers?: Record<string, string>) =>
  signedRawRequest(server.baseUrl, creds, { method, path, headers });

function expectAlike(ours: RawResponse, next: RawResponse, label: string) {
  expect(ours.status, `${label} (${ours.text.slice(0, 200)})`).toBe(next.status);
  expect(stable(ours.headers), label).toEqual(stable(next.headers));
  expect(vary(ours.headers), label).toBe(vary(next.headers));
  expect(ours.text, label).toBe(next.text);
  expect(dispatched(ours), `${label}: answered by our server without Next`).toBe(true);
  expect(next.headers.vary, `${label}: answered through Next`).toMatch(NEXT_VARY);
  for (const res of [ours, next]) {
    expect(res.headers["x-request-id"], label).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers["cache-control"], label).toBe("no-store");
  }
}

describe("issue 23: one router from the endpoint table, two callers (decision 0036)", () => {
  it("issue 23: every entry of the table is served by our server and by next start alike (status, headers, body), under all four prefixes", async () => {
    expect(SUPPLIER_ENDPOINTS.length).toBeGreaterThanOrEqual(12);
    for (const endpoint of SUPPLIER_ENDPOINTS) {
      for (const { prefix, profile } of ALL_PREFIXES) {
        const unique = crypto.randomUUID();
        const request = { method: endpoint.method, path: prefix + endpoint.path, body: endpoint.body(unique) || undefined };
        const ours = await signedRawRequest(server.baseUrl, creds, request);
        const next = await signedRawRequest(nextStart.baseUrl, creds, request);
        const label = `${endpoint.name} ${endpoint.method} ${prefix}${endpoint.path}`;
        expectAlike(ours, next, label);
        // The sample reached its handler (or, for the other profile's extension, the router's 404).
        if (servedIn(endpoint, profile)) expect(ours.json<AnyAnswer>().error_code, label).not.toBe("not_found");
        else expect([ours.status, ours.json<AnyAnswer>().error_code], label).toEqual([404, "not_found"]);
      }
    }
  }, 300_000); // about a hundred requests: seconds alone, minutes on a loaded shared machine

  it("issue 23: an unknown path, an unknown method, HEAD and the other profile's extension get the same D1 answer from both, under all four prefixes", async () => {
    for (const { prefix } of ALL_PREFIXES) {
      const cases: [string, string, number, string | null][] = [
        ["GET", `${prefix}/no-such-endpoint`, 404, "not_found"],
        ["POST", `${prefix}/orders/1/constructor`, 404, "not_found"],
        ["GET", prefix, 404, "not_found"],
        ["PATCH", `${prefix}/ping`, 405, "method_not_allowed"],
        ["DELETE", `${prefix}/orders`, 405, "method_not_allowed"],
        ["OPTIONS", `${prefix}/products/1`, 405, "method_not_allowed"],
        ["HEAD", `${prefix}/categories`, 200, null],
      ];
      for (const [method, path, status, code] of cases) {
        const ours = await send(method, path);
        const next = await signedRawRequest(nextStart.baseUrl, creds, { method, path });
        const label = `${method} ${path}`;
        expectAlike(ours, next, label);
        expect(ours.status, label).toBe(status);
        if (code) expect(ours.json(), label).toEqual({ ok: false, error_code: code, error_message: anyString() });
      }
      expect((await send("PATCH", `${prefix}/ping`)).headers.allow).toBe("GET, HEAD, POST");
      expect((await send("DELETE", `${prefix}/orders`)).headers.allow).toBe("POST");
    }
  });
});

describe("our server answers the supplier API without Next's router (decisions 0023, 0036)", () => {
  it("passes a target on in the URL parser's normal form, parsing a URL only when it could change", () => {
    const queries = [
      "",
      "?",
      "?page=2&page_size=100",
      "?include_inactive=1",
      "?a=%41&b=x+y,z~.-_",
      "?a b",
      '?a="x"',
      "?a='x'",
      "?a=<b>",
      "?é=1",
      "?a=%zz",
      "?a=1?b",
      "?a=|",
      "?a=`",
      "?a={}",
      "?a=[]",
      "?a=\\",
      "?a=^",
      "?a=\u0000",
      "?;a",
      "?a=@:/!$()*",
    ];
    for (const path of [
      "/api/v1/upstream/products",
      "/v1/provider/products/12",
      "/v1/provider/./products/%41",
      "/api/v1/upstream/a/../ping",
    ]) {
      for (const q of queries) {
        const target = path + q;
        const url = new URL(target, "http://localhost");
        expect(normalTarget(target), JSON.stringify(target)).toBe(url.pathname + url.search);
      }
    }
  });

  it("answers HEAD, 405s, the other profile's extension, unknown paths and encoded ids itself", async () => {
    // Next decodes %41 to "A": so does the router, answering as /products/A is.
    const encoded = await send("GET", "/api/v1/upstream/products/%41");
    expect(dispatched(encoded)).toBe(true);
    expect(encoded.json()).toMatchObject({
      ok: false,
      error_code: (await send("GET", "/api/v1/upstream/products/A")).json<AnyAnswer>().error_code,
    });
    const head = await send("HEAD", "/api/v1/upstream/ping");
    expect([head.status, dispatched(head), head.text]).toEqual([200, true, ""]);
    const patch = await send("PATCH", "/api/v1/upstream/orders");
    expect([patch.status, dispatched(patch)]).toEqual([405, true]);
    expect(patch.json()).toMatchObject({ ok: false, error_code: "method_not_allowed" });
    const webhook = await send("GET", "/api/v1/provider/catalog-webhook");
    expect([webhook.status, dispatched(webhook)]).toEqual([404, true]);
    expect(dispatched(await send("GET", "/api/v1/upstream/catalog-webhook"))).toBe(true);
    for (const path of ["/api/v1/upstream/products/x/y", "/api/v1/upstream/constructor", "/v1/provider/orders/1/constructor"]) {
      const unknown = await send("GET", path);
      expect(dispatched(unknown), path).toBe(true);
      expect(unknown.json(), path).toMatchObject({ ok: false, error_code: "not_found" });
    }
  });

  it("answers a page, a product, an unknown product and a bad key as its HEAD", async () => {
    for (const { prefix } of ALL_PREFIXES) {
      for (const path of [`${prefix}/products?page=1&page_size=2`, `${prefix}/products/${ids.autoB}`, `${prefix}/products/999999`]) {
        const get = await send("GET", path);
        const head = await send("HEAD", path);
        expect(get.status, path).toBe(head.status);
        expect(stable(get.headers), path).toEqual(stable(head.headers));
        expect(dispatched(get), path).toBe(true);
        expect(get.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
        expect(Number(get.headers["content-length"])).toBe(Buffer.byteLength(get.text));
      }
    }
    const refused = await signedRawRequest(
      server.baseUrl,
      { ...creds, apiSecret: "wrong" },
      { method: "GET", path: "/v1/provider/products" },
    );
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({ ok: false, error_code: "unauthorized" });
  });

  it("dispatches every endpoint with a pipeline: bodies read from the socket, capped at 1 MiB (D30)", async () => {
    for (const path of ["/api/v1/upstream/ping", "/v1/provider/categories", "/api/v1/upstream/statement"]) {
      const res = await send("GET", path);
      expect([res.status, dispatched(res)], path).toEqual([200, true]);
    }
    // A GET's body is read and ignored, as through Next.
    const withBody = await signedRawRequest(server.baseUrl, creds, { method: "GET", path: "/api/v1/upstream/products", body: "{}" });
    expect([withBody.status, dispatched(withBody)]).toEqual([200, true]);
    const order = await signedRawRequest(server.baseUrl, creds, {
      method: "POST",
      path: "/api/v1/upstream/orders",
      body: JSON.stringify({ downstream_order_no: `DISPATCH-${Date.now()}`, sku_id: skuIds.autoB, quantity: 1 }),
    });
    expect(dispatched(order)).toBe(true);
    expect(order.json()).toMatchObject({ ok: true });
    const read = await send("GET", `/api/v1/upstream/orders/${order.json<{ order_id: number }>().order_id}`);
    expect([read.status, dispatched(read), read.json<{ order_no: string }>().order_no]).toEqual([
      200,
      true,
      order.json<{ order_no: string }>().order_no,
    ]);
    const invalid = await signedRawRequest(server.baseUrl, creds, { method: "POST", path: "/v1/provider/orders", body: '{"a":1,"a":2}' });
    expect([invalid.status, invalid.json<AnyAnswer>().error_code]).toEqual([400, "invalid_json"]);
    const big = "x".repeat(1024 * 1024 + 1);
    for (const chunked of [false, true]) {
      const tooLarge = await signedRawRequest(server.baseUrl, creds, {
        method: "POST",
        path: "/api/v1/upstream/orders",
        body: big,
        chunked,
      });
      expect([tooLarge.status, dispatched(tooLarge), tooLarge.headers.connection], `chunked ${chunked}`).toEqual([413, true, "close"]);
      expect(tooLarge.json()).toMatchObject({ ok: false, error_code: "request_too_large" });
    }
  });
});

describe("issue 23: the supplier API is written down once", () => {
  // Source files that are not tests, test kits (lib/testing, the conformance kit, e2e) or docs.
  const sources = execFileSync(
    "git",
    ["ls-files", "app", "lib", "scripts", "components", "instrumentation.ts", "next.config.mjs", "proxy.ts"],
    {
      encoding: "utf8",
    },
  )
    .split("\n")
    .filter(
      (f) =>
        /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.ts$|\.testutil\.ts$|^lib\/testing\/|^scripts\/conformance\//.test(f) && fs.existsSync(f),
    );

  it("issue 23: each of the four prefixes is written in one file only, lib/protocol/profiles.ts", () => {
    for (const prefix of [...PROFILE_PREFIXES.U, ...PROFILE_PREFIXES.P]) {
      const files = sources.filter((f) => fs.readFileSync(f, "utf8").includes(prefix.slice(1)));
      expect(files, prefix).toEqual(["lib/protocol/profiles.ts"]);
    }
  });

  it("issue 23: no code outside the endpoint table writes an endpoint's path", () => {
    const firstSegments = [...new Set(ENDPOINT_LIST.map((e) => e.path.split("/")[1]))];
    const literal = new RegExp(`["'\`]/(${firstSegments.join("|")})\\b`);
    const offenders = sources.flatMap((f) =>
      fs
        .readFileSync(f, "utf8")
        .split("\n")
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && literal.test(line))
        .map((line) => `${f}: ${line.trim()}`),
    );
    // Decision 0090: Dujiao-Next's table is the other one, its paths fixed by their source.
    expect(offenders.filter((o) => !o.startsWith("lib/protocol/endpoints.ts:") && !o.startsWith("lib/protocol/dujiao-next.ts:"))).toEqual(
      [],
    );
  });
});
