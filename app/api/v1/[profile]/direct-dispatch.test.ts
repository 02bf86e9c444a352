import { describe, expect, it } from "vitest";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { signedRawRequest } from "@/lib/supplier-api/test-client";
import { creds, ids, server, useCatalogFixture } from "./catalog.testutil";

// Decision 0023: our HTTP server hands GET products and GET products/{id}
// straight to their route handlers; everything else still goes through Next.
// A HEAD of the same path is served by the same handler through Next, so the
// two must answer with the same status and headers (D1, D2-D5).
useCatalogFixture();

// Next's router adds "Vary: rsc, next-router-state-tree, …" (its own page
// protocol, meaningless to an API client); a dispatched answer has none.
const NEXT_VARY = /next-router-state-tree/;
const VARYING = new Set(["date", "x-request-id", "connection", "keep-alive", "transfer-encoding", "content-length", "vary"]);
const stable = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([k]) => !VARYING.has(k)));
const send = (method: string, path: string, headers?: Record<string, string>) => signedRawRequest(server.baseUrl, creds, { method, path, headers });

describe("catalogue reads dispatched without Next's router (decision 0023)", () => {
  it("answers as Next's route does, under all four prefixes, for a page, a product, an unknown product and a bad key", async () => {
    for (const { prefix } of ALL_PREFIXES) {
      for (const path of [`${prefix}/products?page=1&page_size=2`, `${prefix}/products/${ids.autoB}`, `${prefix}/products/999999`]) {
        const direct = await send("GET", path);
        const viaNext = await send("HEAD", path);
        expect(direct.status, path).toBe(viaNext.status);
        expect(stable(direct.headers), path).toEqual(stable(viaNext.headers));
        expect(viaNext.headers.vary, path).toMatch(NEXT_VARY);
        expect(direct.headers.vary, path).toBeUndefined();
        expect(direct.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
        expect(Number(direct.headers["content-length"])).toBe(Buffer.byteLength(direct.text));
      }
    }
    const refused = await signedRawRequest(server.baseUrl, { ...creds, apiSecret: "wrong" }, { method: "GET", path: "/v1/provider/products" });
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({ ok: false, error_code: "unauthorized" });
  });

  it("leaves to Next what it cannot pass on unchanged: an encoded id, a GET with a body, other paths", async () => {
    // Next decodes %41 to "A": answered as /products/A is.
    const encoded = await send("GET", "/api/v1/upstream/products/%41");
    expect(encoded.headers.vary).toMatch(NEXT_VARY);
    expect(encoded.json()).toMatchObject({ ok: false, error_code: (await send("GET", "/api/v1/upstream/products/A")).json().error_code });
    const withBody = await signedRawRequest(server.baseUrl, creds, { method: "GET", path: "/api/v1/upstream/products", body: "{}" });
    expect(withBody.headers.vary).toMatch(NEXT_VARY);
    expect((await send("GET", "/api/v1/upstream/categories")).json().ok).toBe(true);
    expect((await send("GET", "/api/v1/upstream/products/x/y")).json()).toMatchObject({ ok: false, error_code: "not_found" });
  });
});
