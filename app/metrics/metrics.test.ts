import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { authorizeScrape } from "@/lib/metrics/authorize-scrape";
import { createOrder } from "@/lib/orders/create-order";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import { signedRawRequest } from "@/lib/testing/test-client";

// Issue 10 item 7: GET /metrics (Prometheus text, prom-client), gated by METRICS_TOKEN.

const TOKEN = "metrics-token-for-tests-0123456789";
let url: string;
let server: AppServer;
let noToken: AppServer;

beforeAll(async () => {
  url = await useTestDatabase();
  [server, noToken] = await Promise.all([startAppServer(url, { METRICS_TOKEN: TOKEN }), startAppServer(url)]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), noToken?.stop()]);
});

const scrape = (s: AppServer, auth?: string) => fetch(`${s.baseUrl}/metrics`, { headers: auth ? { Authorization: auth } : {} });

/** The value of one sample line `name{labels} value` (labels given as a substring), or undefined. */
function sample(text: string, name: string, labels = ""): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(name) && (l[name.length] === "{" || l[name.length] === " ") && l.includes(labels));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : undefined;
}

describe("issue 10.7: /metrics is answered only with METRICS_TOKEN as a bearer token", () => {
  it("404 without METRICS_TOKEN configured, even with a bearer token", async () => {
    expect((await scrape(noToken, `Bearer ${TOKEN}`)).status).toBe(404);
    expect((await scrape(noToken)).status).toBe(404);
  });

  it("404 without a token, with a wrong one, with another scheme or a token that only starts the same", async () => {
    for (const auth of [undefined, "Bearer wrong", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN]) {
      const res = await scrape(server, auth);
      expect(res.status, String(auth)).toBe(404);
      expect(await res.text()).not.toContain("cardkey_");
    }
  });

  it("the gate itself: an empty METRICS_TOKEN never matches an empty bearer", () => {
    expect(authorizeScrape(new Request("http://x/metrics", { headers: { Authorization: "Bearer " } }), "")).toBe(false);
  });
});

describe("issue 10.7: what /metrics reports", () => {
  it("request counts and latency per endpoint and status, orders, stock per SKU, balances, jobs, callbacks, upstream purchases", async () => {
    const buyer = await makeBuyer({ pointsCents: 50_000n });
    const { sku } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("MET", 5) });
    await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: `MET-${Date.now()}`, skuId: sku.id, quantity: 2 },
    });
    const ping = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/v1/upstream/ping" });
    expect(ping.status).toBe(200);
    const bad = await signedRawRequest(server.baseUrl, { ...buyer, apiSecret: "wrong" }, { method: "GET", path: "/v1/upstream/ping" });
    expect(bad.status).toBe(401);

    const res = await scrape(server, `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();

    expect(sample(text, "cardkey_api_requests_total", 'status="200"')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/cardkey_api_requests_total\{endpoint="[^"]+",profile="U",status="401"\} 1/);
    expect(text).toMatch(/cardkey_api_request_duration_seconds_bucket\{le="[^"]+",endpoint="[^"]+",status="200"\}/);
    expect(sample(text, "cardkey_orders", 'profile="U",status="delivered"')).toBe(1);
    expect(sample(text, "cardkey_deliveries", 'source="auto"')).toBe(1);
    expect(sample(text, "cardkey_card_keys_available", `sku="${sku.skuCode}"`)).toBe(3);
    const balance = await db().user.aggregate({ _sum: { balanceCents: true } });
    expect(sample(text, "cardkey_points_balance")).toBe(Number(balance._sum.balanceCents) / 100);
    for (const name of ["cardkey_jobs_waiting", "cardkey_jobs_oldest_waiting_seconds", "cardkey_refunds"])
      expect(sample(text, name), name).toBeGreaterThanOrEqual(0);
    for (const name of [
      "cardkey_callback_attempts",
      "cardkey_callbacks",
      "cardkey_upstream_purchases",
      "cardkey_process_cpu_seconds_total",
    ]) {
      expect(text, name).toContain(`# TYPE ${name}`);
    }
    // Never a secret in a scrape.
    expect(text).not.toContain(buyer.apiSecret);
  });

  it("the waiting-job gauges count a job that is due and untaken, and its age", async () => {
    await db()
      .$executeRaw`SELECT graphile_worker.add_job('metrics-test-task', '{}'::json, run_at := now() - interval '90 seconds', job_key := 'metrics-test')`;
    try {
      const text = await (await scrape(server, `Bearer ${TOKEN}`)).text();
      expect(sample(text, "cardkey_jobs_waiting")).toBeGreaterThanOrEqual(1);
      expect(sample(text, "cardkey_jobs_oldest_waiting_seconds")).toBeGreaterThanOrEqual(89);
    } finally {
      await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = 'metrics-test'`;
    }
  });

  it("per-SKU stock is bounded to 50 labels, the lowest stock first", async () => {
    const text = await (await scrape(server, `Bearer ${TOKEN}`)).text();
    const lines = text.split("\n").filter((l) => l.startsWith("cardkey_card_keys_available{"));
    expect(lines.length).toBeLessThanOrEqual(50);
  });
});
