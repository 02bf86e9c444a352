import { describe, expect, it } from "vitest";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { signedRawRequest } from "@/lib/supplier-api/test-client";
import { normalTarget } from "@/lib/ops/direct-dispatch";
import { creds, ids, server, skuIds, useCatalogFixture } from "@/lib/testing/catalog-fixture";

// Decision 0023: our HTTP server hands the supplier API's requests straight
// to the pipeline behind their route exports; what has none (HEAD, 405s, an
// endpoint of one profile only, unknown paths) still goes through Next.
// A HEAD of the same path is served by the same handler through Next, so the
// two must answer with the same status and headers (D1, D2-D5).
useCatalogFixture();

// Next's router adds "Vary: rsc, next-router-state-tree, …" (its own page
// protocol, meaningless to an API client); a dispatched answer has none.
const NEXT_VARY = /next-router-state-tree/;
const VARYING = new Set(["date", "x-request-id", "connection", "keep-alive", "transfer-encoding", "content-length", "vary"]);
const stable = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([k]) => !VARYING.has(k)));
/** Answered by the dispatch: without Next's Vary (a products page varies by Accept-Encoding only, issue 13.4). */
const dispatched = (res: { headers: Record<string, unknown> }) => !NEXT_VARY.test(String(res.headers.vary ?? ""));
const send = (method: string, path: string, headers?: Record<string, string>) => signedRawRequest(server.baseUrl, creds, { method, path, headers });

describe("supplier API dispatched without Next's router (decision 0023)", () => {
  it("passes a target on in the URL parser's normal form, parsing a URL only when the query could change", () => {
    const queries = ["", "?", "?page=2&page_size=100", "?include_inactive=1", "?a=%41&b=x+y,z~.-_", "?a b", "?a=\"x\"", "?a='x'", "?a=<b>",
      "?é=1", "?a=%zz", "?a=1?b", "?a=|", "?a=`", "?a={}", "?a=[]", "?a=\\", "?a=^", "?a=\u0000", "?;a", "?a=@:/!$()*"];
    for (const path of ["/api/v1/upstream/products", "/v1/provider/products/12"]) {
      for (const q of queries) {
        const target = path + q;
        const url = new URL(target, "http://localhost");
        expect(normalTarget(target, target.indexOf("?")), JSON.stringify(target)).toBe(url.pathname + url.search);
      }
    }
  });

  it("answers as Next's route does, under all four prefixes, for a page, a product, an unknown product and a bad key", async () => {
    for (const { prefix } of ALL_PREFIXES) {
      for (const path of [`${prefix}/products?page=1&page_size=2`, `${prefix}/products/${ids.autoB}`, `${prefix}/products/999999`]) {
        const direct = await send("GET", path);
        const viaNext = await send("HEAD", path);
        expect(direct.status, path).toBe(viaNext.status);
        expect(stable(direct.headers), path).toEqual(stable(viaNext.headers));
        expect(viaNext.headers.vary, path).toMatch(NEXT_VARY);
        expect(dispatched(direct), path).toBe(true);
        expect(direct.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
        expect(Number(direct.headers["content-length"])).toBe(Buffer.byteLength(direct.text));
      }
    }
    const refused = await signedRawRequest(server.baseUrl, { ...creds, apiSecret: "wrong" }, { method: "GET", path: "/v1/provider/products" });
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({ ok: false, error_code: "unauthorized" });
  });

  it("leaves to Next what has no pipeline or cannot be passed on unchanged: an encoded id, HEAD, a 405, an endpoint of the other profile, other paths", async () => {
    // Next decodes %41 to "A": answered as /products/A is.
    const encoded = await send("GET", "/api/v1/upstream/products/%41");
    expect(encoded.headers.vary).toMatch(NEXT_VARY);
    expect(encoded.json()).toMatchObject({ ok: false, error_code: (await send("GET", "/api/v1/upstream/products/A")).json().error_code });
    expect((await send("HEAD", "/api/v1/upstream/ping")).headers.vary).toMatch(NEXT_VARY);
    const patch = await send("PATCH", "/api/v1/upstream/orders");
    expect([patch.status, patch.headers.vary]).toEqual([405, expect.stringMatching(NEXT_VARY)]);
    expect(patch.json()).toMatchObject({ ok: false, error_code: "method_not_allowed" });
    const postProducts = await send("POST", "/api/v1/upstream/products");
    expect([postProducts.status, postProducts.headers.vary]).toEqual([405, expect.stringMatching(NEXT_VARY)]);
    // The catalogue webhook is a Profile U extension (under P the path does not exist): Next answers it under both.
    const webhook = await send("GET", "/api/v1/provider/catalog-webhook");
    expect([webhook.status, webhook.headers.vary]).toEqual([404, expect.stringMatching(NEXT_VARY)]);
    expect((await send("GET", "/api/v1/upstream/catalog-webhook")).headers.vary).toMatch(NEXT_VARY);
    for (const path of ["/api/v1/upstream/products/x/y", "/api/v1/upstream/constructor", "/v1/provider/orders/1/constructor"]) {
      const unknown = await send("GET", path);
      expect(unknown.headers.vary, path).toMatch(NEXT_VARY);
      expect(unknown.json(), path).toMatchObject({ ok: false, error_code: "not_found" });
    }
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
      method: "POST", path: "/api/v1/upstream/orders",
      body: JSON.stringify({ downstream_order_no: `DISPATCH-${Date.now()}`, sku_id: skuIds.autoB, quantity: 1 }),
    });
    expect(dispatched(order)).toBe(true);
    expect(order.json()).toMatchObject({ ok: true });
    const read = await send("GET", `/api/v1/upstream/orders/${order.json().order_id}`);
    expect([read.status, dispatched(read), read.json().order_no]).toEqual([200, true, order.json().order_no]);
    const invalid = await signedRawRequest(server.baseUrl, creds, { method: "POST", path: "/v1/provider/orders", body: "{\"a\":1,\"a\":2}" });
    expect([invalid.status, invalid.json().error_code]).toEqual([400, "invalid_json"]);
    const big = "x".repeat(1024 * 1024 + 1);
    for (const chunked of [false, true]) {
      const tooLarge = await signedRawRequest(server.baseUrl, creds, { method: "POST", path: "/api/v1/upstream/orders", body: big, chunked });
      expect([tooLarge.status, dispatched(tooLarge), tooLarge.headers.connection], `chunked ${chunked}`).toEqual([413, true, "close"]);
      expect(tooLarge.json()).toMatchObject({ ok: false, error_code: "request_too_large" });
    }
  });
});
