import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createSupplierClient, SupplierApiError } from "@/lib/protocol/client";
import { PROFILE_PREFIXES } from "@/lib/protocol/profiles";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import { signedRawRequest, type Creds } from "@/lib/testing/test-client";
import type { AnyAnswer } from "@/lib/testing/wire-types";
import { anyString } from "@/lib/testing/matchers";

// Issue 12.2 over real HTTP: the catalogue webhook endpoints of Profile U
// (docs/protocol.md "Catalogue events", decision 0022). Private networks are
// not allowed on this server, so a loopback URL is refused as D29 says.

let server: AppServer;
let buyer: Creds & { id: number };
const PUBLIC_URL = "https://93.184.216.34/hooks/catalog?token=abc";

beforeAll(async () => {
  const url = await useTestDatabase();
  buyer = await makeBuyer();
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

const call = (method: string, prefix: string, body?: object, creds: Creds = buyer) =>
  signedRawRequest(server.baseUrl, creds, { method, path: `${prefix}/catalog-webhook`, body: body ? JSON.stringify(body) : undefined });

describe("issue 12.2: the catalogue webhook endpoints", () => {
  it("Profile U: PUT registers, GET reads, DELETE removes, under both U prefixes; each answers the state after it", async () => {
    for (const prefix of PROFILE_PREFIXES.U) {
      expect((await call("GET", prefix)).json()).toEqual({ ok: true, url: null });
      const put = await call("PUT", prefix, { url: PUBLIC_URL });
      expect([put.status, put.json()]).toEqual([200, { ok: true, url: PUBLIC_URL }]);
      expect((await call("GET", prefix)).json()).toEqual({ ok: true, url: PUBLIC_URL });
      const row = await db().catalogWebhook.findUniqueOrThrow({ where: { credentialId: buyer.id } });
      expect(row.url).toBe(PUBLIC_URL);
      expect((await call("DELETE", prefix)).json()).toEqual({ ok: true, url: null });
      expect((await call("GET", prefix)).json()).toEqual({ ok: true, url: null });
      expect((await call("DELETE", prefix)).json()).toEqual({ ok: true, url: null }); // removing none is not an error
    }
  });

  it("one webhook per key: a second PUT replaces the URL; another key has its own", async () => {
    const other = await makeBuyer();
    await call("PUT", "/api/v1/upstream", { url: PUBLIC_URL });
    await call("PUT", "/v1/upstream", { url: "http://93.184.216.34/second" });
    await call("PUT", "/v1/upstream", { url: "http://93.184.216.35/other" }, other);
    expect((await call("GET", "/api/v1/upstream")).json<{ url: string }>().url).toBe("http://93.184.216.34/second");
    expect((await call("GET", "/api/v1/upstream", undefined, other)).json<{ url: string }>().url).toBe("http://93.184.216.35/other");
    expect(await db().catalogWebhook.count({ where: { credentialId: buyer.id } })).toBe(1);
    await call("DELETE", "/api/v1/upstream");
  });

  it("D29: loopback, private, metadata and non-http URLs are refused with 400 bad_request and nothing is stored", async () => {
    for (const url of [
      "http://127.0.0.1:9/hook",
      "http://10.0.0.5/hook",
      "http://169.254.169.254/latest",
      "http://metadata.google.internal/",
      "ftp://93.184.216.34/x",
      "not a url",
      "http://[::ffff:127.0.0.1]/x",
    ]) {
      const res = await call("PUT", "/api/v1/upstream", { url });
      expect([res.status, res.json<AnyAnswer>().error_code], url).toEqual([400, "bad_request"]);
      expect(res.json<AnyAnswer>().error_message, url).toMatch(/^url /);
    }
    for (const body of [{}, { url: "" }, { url: 5 }, { url: `https://93.184.216.34/${"x".repeat(2048)}` }]) {
      expect((await call("PUT", "/api/v1/upstream", body)).status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect(await db().catalogWebhook.count({ where: { credentialId: buyer.id } })).toBe(0);
  });

  it("section 6: Profile P sends no callbacks, so every method of the path is 404 not_found under both P prefixes", async () => {
    for (const prefix of PROFILE_PREFIXES.P) {
      for (const method of ["GET", "PUT", "DELETE", "POST"]) {
        const res = await call(method, prefix, method === "PUT" ? { url: PUBLIC_URL } : undefined);
        expect([res.status, res.json()], `${method} ${prefix}`).toEqual([
          404,
          { ok: false, error_code: "not_found", error_message: anyString() },
        ]);
      }
    }
    expect(await db().catalogWebhook.count({ where: { credentialId: buyer.id } })).toBe(0);
  });

  it("Profile U: other methods are 405 with Allow; an unsigned request is 401", async () => {
    const res = await call("POST", "/api/v1/upstream", { url: PUBLIC_URL });
    expect([res.status, res.json<AnyAnswer>().error_code, res.headers.allow]).toEqual([
      405,
      "method_not_allowed",
      "GET, HEAD, PUT, DELETE",
    ]);
    expect((await call("PUT", "/v1/upstream", { url: PUBLIC_URL }, { ...buyer, apiSecret: "wrong" })).status).toBe(401);
  });

  it("the typed client: putCatalogWebhook, getCatalogWebhook, deleteCatalogWebhook (and 404 in Profile P)", async () => {
    const u = createSupplierClient({ baseUrl: server.baseUrl, apiKey: buyer.apiKey, apiSecret: buyer.apiSecret, profile: "U" });
    expect(await u.putCatalogWebhook({ url: PUBLIC_URL })).toEqual({ ok: true, url: PUBLIC_URL });
    expect(await u.getCatalogWebhook()).toEqual({ ok: true, url: PUBLIC_URL });
    expect(await u.deleteCatalogWebhook()).toEqual({ ok: true, url: null });
    const p = createSupplierClient({ baseUrl: server.baseUrl, apiKey: buyer.apiKey, apiSecret: buyer.apiSecret, profile: "P" });
    await expect(p.getCatalogWebhook()).rejects.toBeInstanceOf(SupplierApiError);
    await expect(p.getCatalogWebhook()).rejects.toMatchObject({ status: 404, code: "not_found" });
  });
});
