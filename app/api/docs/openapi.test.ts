import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supplierClient } from "@/lib/protocol/client";
import { openApiDocument } from "@/lib/protocol/openapi/document";
import { signedRawRequest } from "@/lib/testing/test-client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer } from "@/lib/testing/factories";
import { checkTestResponse, ResponseContractError, responseCheckLog } from "@/lib/testing/response-check";
import { useTestDatabase } from "@/lib/testing/test-database";

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;

beforeAll(async () => {
  const url = await useTestDatabase();
  buyer = await makeBuyer();
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

describe("issue 11.1: GET /api/docs/openapi.json", () => {
  it("is public and unsigned, and serves the generated document", async () => {
    const res = await fetch(`${server.baseUrl}/api/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });
});

describe("issue 11.1: the HTTP test harness checks every response against the document", () => {
  it("records the check of responses received through rawRequest and through fetch (lib/protocol/client)", async () => {
    const before = responseCheckLog.length;
    expect((await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/api/v1/provider/ping" })).status).toBe(200);
    expect((await supplierClient(server.baseUrl, "/v1/upstream", buyer).get("/orders/999999")).status).toBe(404);
    expect(responseCheckLog.slice(before)).toEqual([
      { method: "GET", path: "/api/v1/provider/ping", status: 200, operationId: "provider_ping" },
      { method: "GET", path: "/v1/upstream/orders/999999", status: 404, operationId: "upstreamAlt_getOrder" },
    ]);
  });

  it("fails a test whose response from our server does not match (amount as a number)", () => {
    const body = JSON.stringify({ ok: true, categories: [{ id: 1, parent_id: 0, slug: "a", name: { "zh-CN": "", en: "" }, sort_order: "1" }] });
    expect(() => checkTestResponse(`${server.baseUrl}/api/v1/upstream/categories`, "GET", 200, "application/json", body)).toThrow(ResponseContractError);
    // Stubs and proxies are not our server: not checked.
    expect(() => checkTestResponse("http://127.0.0.1:9/api/v1/upstream/categories", "GET", 200, "application/json", body)).not.toThrow();
  });
});
