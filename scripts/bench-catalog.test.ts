import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "@/lib/testing/factories";

// `npm run bench:catalog` end to end with a small N: it signs correctly, hits
// the catalogue and the baseline route, and prints the promised JSON. The
// baseline route exists only with ENABLE_BENCH_ROUTES=1.
describe("bench:catalog", () => {
  let server: AppServer;
  let plain: AppServer;
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;

  beforeAll(async () => {
    const url = await useTestDatabase();
    await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 0, rateLimitPerIp: 0 } });
    for (let i = 0; i < 3; i++) await makeProduct({ cardKeys: cardKeysFor(`B${i}`, 2) });
    buyer = await makeBuyer();
    [server, plain] = await Promise.all([startAppServer(url, { ENABLE_BENCH_ROUTES: "1" }), startAppServer(url)]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), plain?.stop()]);
  });

  it("prints requests/s, p50, p99 and errors for the catalogue and the baseline, and their ratio", () => {
    const run = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/bench-catalog.ts", "--n", "60", "--c", "4"], {
      env: { ...process.env, BENCH_BASE_URL: server.baseUrl, BENCH_API_KEY: buyer.apiKey, BENCH_API_SECRET: buyer.apiSecret },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    type Side = { requests_per_second: number; p50_ms: number; p99_ms: number };
    const out = JSON.parse(run.stdout) as { items_per_page: number; catalog: Side; baseline: Side; ratio: number };
    expect(out.items_per_page).toBe(3);
    for (const side of [out.catalog, out.baseline]) {
      expect(side).toMatchObject({ requests: 60, concurrency: 4, errors: 0 });
      expect(side.requests_per_second).toBeGreaterThan(0);
      expect(side.p99_ms).toBeGreaterThanOrEqual(side.p50_ms);
    }
    expect(out.ratio).toBeGreaterThan(0);
  });

  it("the baseline route answers 404 unless ENABLE_BENCH_ROUTES=1, and returns exactly the bytes asked for", async () => {
    expect((await fetch(`${plain.baseUrl}/api/bench/fixed`)).status).toBe(404);
    const res = await fetch(`${server.baseUrl}/api/bench/fixed?bytes=1234`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(Buffer.byteLength(body)).toBe(1234);
    expect((JSON.parse(body) as { ok: boolean }).ok).toBe(true);
  });
});
