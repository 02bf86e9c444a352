import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer } from "@/lib/testing/factories";
import { signedRawRequest, type Creds } from "@/lib/testing/test-client";
import type { AnyAnswer } from "@/lib/testing/wire-types";
import { anyString } from "@/lib/testing/matchers";

// D31 rate limits and D8 replay records across TWO app instances on one
// database: both are stored in PostgreSQL, so neither can be dodged by
// spreading requests over instances. Per-IP limits are told apart by the
// socket's address (issue 8.5): each "client host" binds 127.0.0.N.

const PER_KEY = 5;
const PER_IP = 8;
let one: AppServer;
let two: AppServer;
let ipCounter = 0;
const freshIp = () => `127.0.1.${++ipCounter}`;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: PER_KEY, rateLimitPerIp: PER_IP } });
  [one, two] = await Promise.all([startAppServer(url), startAppServer(url)]);
});
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
});

function ping(server: AppServer, creds: Creds, prefix: string, ip: string) {
  return signedRawRequest(server.baseUrl, creds, { method: "GET", path: `${prefix}/ping`, localAddress: ip });
}

describe("D31 rate limits, shared across instances", () => {
  for (const prefix of ["/api/v1/upstream", "/v1/provider"]) {
    it(`${prefix}: per API key; the request over the limit gets 429 rate_limited with Retry-After`, async () => {
      const buyer = await makeBuyer();
      const statuses: number[] = [];
      for (let i = 0; i < PER_KEY; i++) statuses.push((await ping(i % 2 ? one : two, buyer, prefix, freshIp())).status);
      expect(statuses).toEqual(Array(PER_KEY).fill(200));
      const over = await ping(one, buyer, prefix, freshIp());
      expect(over.status).toBe(429);
      expect(over.json()).toEqual({ ok: false, error_code: "rate_limited", error_message: anyString() });
      const retryAfter = Number(over.headers["retry-after"]);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(over.headers["x-request-id"]).toBeDefined();
      // Another key is not affected.
      expect((await ping(two, await makeBuyer(), prefix, freshIp())).status).toBe(200);
    });
  }

  it("Profile P also limits per IP, across keys and instances; Profile U does not", async () => {
    const ip = freshIp();
    const keys = await Promise.all([makeBuyer(), makeBuyer(), makeBuyer()]);
    const statuses: number[] = [];
    for (let i = 0; i < PER_IP + 1; i++) statuses.push((await ping(i % 2 ? one : two, keys[i % 3], "/api/v1/provider", ip)).status);
    expect(statuses.slice(0, PER_IP)).toEqual(Array(PER_IP).fill(200));
    expect(statuses[PER_IP]).toBe(429);

    const uKeys = await Promise.all([makeBuyer(), makeBuyer(), makeBuyer()]);
    const uIp = freshIp();
    for (let i = 0; i < PER_IP + 1; i++) expect((await ping(one, uKeys[i % 3], "/api/v1/upstream", uIp)).status).toBe(200);
  });
});

describe("D8 replay records hold across instances", () => {
  it("a signed P request processed by one instance is refused by the other", async () => {
    const buyer = await makeBuyer();
    const timestamp = Math.floor(Date.now() / 1000) - 30;
    const req = { method: "GET", path: "/api/v1/provider/categories", timestamp, localAddress: freshIp() };
    expect((await signedRawRequest(one.baseUrl, buyer, req)).status).toBe(200);
    const again = await signedRawRequest(two.baseUrl, buyer, req);
    expect(again.status).toBe(409);
    expect(again.json<AnyAnswer>().error_code).toBe("replay_detected");
  });

  it("concurrent copies of one signed request: exactly one is processed", async () => {
    const buyer = await makeBuyer();
    const timestamp = Math.floor(Date.now() / 1000) - 30;
    const req = { method: "GET", path: "/v1/provider/products", timestamp, localAddress: freshIp() };
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => signedRawRequest((i % 2 ? one : two).baseUrl, buyer, req)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });
});
