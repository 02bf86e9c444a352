import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer } from "@/lib/testing/factories";
import { signedRawRequest, type Creds } from "../testing/test-client";
import type { AnyAnswer } from "@/lib/testing/wire-types";

// D8 and decision 0010 over real HTTP: the query string is not signed, so it
// may not make a captured Profile P request new again.

let server: AppServer;
let buyer: Creds;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer();
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

// Explicit timestamps in the past, so no other request of this file used them.
it("issue 22.6: a captured signed Profile P request with a body cannot be sent again with a query string appended", async () => {
  for (const prefix of ["/api/v1/provider", "/v1/provider"]) {
    const timestamp = Math.floor(Date.now() / 1000) - 20;
    const captured = { method: "POST", path: `${prefix}/ping`, body: "{}", timestamp };
    expect((await signedRawRequest(server.baseUrl, buyer, captured)).status).toBe(200);
    expect((await signedRawRequest(server.baseUrl, buyer, captured)).json<AnyAnswer>().error_code).toBe("replay_detected");
    for (const query of ["?x=1", "?", "?a=b&c=d"]) {
      const again = await signedRawRequest(server.baseUrl, buyer, { ...captured, path: captured.path + query });
      // "?" alone is no query: the same request, a replay.
      const expected = query === "?" ? [409, "replay_detected"] : [400, "bad_request"];
      expect([again.status, again.json<AnyAnswer>().error_code], `${prefix} ${query}`).toEqual(expected);
    }
    // Even sent first, a POST with a query string is refused in Profile P, before anything is done.
    const fresh = await signedRawRequest(server.baseUrl, buyer, {
      method: "POST",
      path: `${prefix}/ping?x=1`,
      body: "{}",
      timestamp: timestamp - 1,
    });
    expect([fresh.status, fresh.json<AnyAnswer>().error_code]).toEqual([400, "bad_request"]);
  }
});

it("issue 22.6: a Profile P GET keeps its query in the replay identity: two pages in one second pass, the same page twice is a replay", async () => {
  const timestamp = Math.floor(Date.now() / 1000) - 25;
  const page = (n: number) =>
    signedRawRequest(server.baseUrl, buyer, { method: "GET", path: `/api/v1/provider/products?page=${n}`, timestamp });
  expect((await page(1)).status).toBe(200);
  expect((await page(2)).status).toBe(200);
  expect((await page(2)).json<AnyAnswer>().error_code).toBe("replay_detected");
});

it("issue 22.6: Profile U has no replay rule; its query strings are left alone", async () => {
  const res = await signedRawRequest(server.baseUrl, buyer, { method: "POST", path: "/api/v1/upstream/ping?x=1", body: "{}" });
  expect(res.status).toBe(200);
});
