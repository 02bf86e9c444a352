import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { waitFor } from "../testing/callback-receiver";
import { runCli } from "../testing/run-cli";
import { startStubUpstream, type StubAnswer, type StubUpstream } from "../testing/stub-upstream";
import { signedRawRequest } from "../testing/test-client";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { editSkuSources } from "./edit-sku-sources";
import { refreshSourceStock } from "./refresh-source-stock";
import type { ProductDetail } from "@/lib/testing/wire-types";

// Issue 26.1: "the last known stock of the enabled upstream sources (from
// imports, catalogue events or a stock refresh)". The stock refresh is a
// periodic job of the real built server's worker (here every second) that
// reads the upstream's incremental sync over the signed API; the upstream is
// a local HTTP server whose answers each test chooses (good, hostile, slow).
// What a downstream sees is read over HTTP, polled within BOUND_MS.

const BOUND_MS = 8000; // a 1 s tick + the ~0.3 s catalogue refresh, with room for a shared 2-core machine
const TOKEN = "2026-11-27T06:00:00.000001Z";
let url: string;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let stub: StubUpstream;
let app: AppServer;
let connectionId: number;
let product: { id: number };
let sourceId: number;
const seenAfterMs: number[] = [];

/** The upstream's catalogue, one product with SKU 501; `raw` replaces the stock figure as sent (hostile answers). */
const upstream = { stock: 7 as unknown, isActive: true, raw: null as StubAnswer | null, delayMs: 0 };
const page = (stock: unknown) => ({
  ok: true,
  items: [{ id: 50, is_active: true, skus: [{ id: 501, sku_code: "X", stock_quantity: stock, is_active: upstream.isActive }] }],
  total: 1,
  page: 1,
  page_size: 100,
  sync_token: TOKEN,
});

beforeAll(async () => {
  url = await useTestDatabase();
  buyer = await makeBuyer({ pointsCents: 1000n });
  stub = await startStubUpstream();
  stub.answer = ({ path }) =>
    path.startsWith("/products?")
      ? (upstream.raw ?? { body: page(upstream.stock) })
      : path.startsWith("/ping")
        ? { body: { ok: true, balance: "100.00" } }
        : { status: 404 };
  connectionId = (
    await addUpstreamConnection({ name: "feed", baseUrl: stub.origin, profile: "U", apiKey: "k", apiSecret: "s" }, { actor: SYSTEM_ACTOR })
  ).id;
  const made = await makeProduct({ cardKeys: cardKeysFor("RF", 2) });
  product = made.product;
  const list = await editSkuSources({
    skuCode: made.sku.skuCode,
    change: { op: "add-upstream", connectionId, upstreamSkuId: 501, maxCostCents: null },
    actor: SYSTEM_ACTOR,
  });
  sourceId = list.sources.find((s) => s.kind === "upstream")!.id!;
  app = await startAppServer(url, { WORKER_IN_SERVER: "true", UPSTREAM_STOCK_REFRESH_SECONDS: "1" });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await stub?.close();
});

async function visibleStock(productId = product.id): Promise<number | undefined> {
  const res = await signedRawRequest(app.baseUrl, buyer, {
    method: "GET",
    path: `/api/v1/upstream/products/${productId}`,
    timestamp: Math.floor(Date.now() / 1000),
  });
  if (res.status === 404) return undefined; // a new product reaches the catalogue within about a second
  expect(res.status).toBe(200);
  return res.json<ProductDetail>().skus[0].stock_quantity;
}

async function shows(expected: number, productId = product.id) {
  const t0 = Date.now();
  let last: number | undefined;
  while (Date.now() - t0 < BOUND_MS) {
    last = await visibleStock(productId);
    if (last === expected) return void seenAfterMs.push(Date.now() - t0);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(last, `stock shown ${BOUND_MS} ms after the upstream changed`).toBe(expected);
}

/** Waits until the upstream has been asked `n` more times (the server's ticks). */
async function askedAgain(n: number) {
  const from = stub.requests.length;
  const t0 = Date.now();
  while (stub.requests.length < from + n) {
    if (Date.now() - t0 > BOUND_MS) throw new Error(`the upstream was not asked ${n} more times`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lastStock = async () => (await db().skuSource.findUniqueOrThrow({ where: { id: sourceId } })).lastStock;

describe("issue 26.1: the stock refresh", () => {
  it("issue 26.1: the server's periodic refresh moves the stock a downstream sees (our 2 keys + the upstream's)", async () => {
    await shows(9);
    upstream.stock = 40;
    await shows(42);
    upstream.stock = -1; // D13: unlimited upstream, so unlimited here
    await shows(-1);
    upstream.isActive = false; // an inactive SKU sells nothing
    await shows(2);
    upstream.isActive = true;
    upstream.stock = 5;
    await shows(7);
    // The first read starts from 0, the next ones from the saved token (incremental sync).
    const queries = stub.requests.filter((r) => r.includes("/products?"));
    expect(queries[0]).toContain("updated_after=0&");
    expect(queries.at(-1)).toContain(`updated_after=${encodeURIComponent(TOKEN)}&`);
    expect((await db().upstreamConnection.findUniqueOrThrow({ where: { id: connectionId } })).stockSyncToken).toBe(TOKEN);
    console.log(JSON.stringify({ issue26_stock_refresh_seen_after_ms: seenAfterMs }));
  });

  it("issue 26.1: a SKU imported from the upstream, with no source list of its own, shows the refreshed stock too", async () => {
    // As `upstream:import` leaves it: the product names its connection, the SKU the upstream's SKU id.
    const made = await makeProduct({ fulfillmentType: "upstream", stockQuantity: 3 });
    await db().product.update({ where: { id: made.product.id }, data: { upstreamConnectionId: connectionId, upstreamProductId: 50 } });
    await db().sku.update({ where: { id: made.sku.id }, data: { upstreamSkuId: 501 } });
    upstream.stock = 11;
    await shows(11, made.product.id);
    upstream.stock = -1; // D13: unlimited
    await shows(-1, made.product.id);
    upstream.stock = 5;
    await shows(5, made.product.id);
  });

  it("issue 26.1: a hostile stock answer changes nothing (negative, huge, fractional, a string, a SKU twice, an error)", async () => {
    const hostile: StubAnswer[] = [
      { body: page(-5) },
      { body: page(2 ** 31) },
      { body: page(1e300) },
      { body: page(3.5) },
      { body: page("9") },
      { body: { ...page(9), items: [page(9).items[0], page(9).items[0]] } },
      { body: { ...page(9), sync_token: "'; DROP TABLE x; --" } },
      { body: "not json" },
      { status: 500, body: { ok: false, error_code: "internal_error" } },
    ];
    for (const answer of hostile) {
      upstream.raw = answer;
      await askedAgain(2); // the server's ticks saw it
      expect(await lastStock()).toBe(5);
      expect(await visibleStock()).toBe(7);
    }
    upstream.raw = null;
    upstream.stock = 6;
    await shows(8);
  });

  it("issue 26.1: a connection whose breaker is open is not called", async () => {
    await db().upstreamConnection.update({ where: { id: connectionId }, data: { breakerOpenUntil: new Date(Date.now() + 3_600_000) } });
    const from = stub.requests.length;
    upstream.stock = 30;
    expect(await refreshSourceStock({ connectionId })).toEqual([
      { connectionId, outcome: "skipped_breaker", requests: 0, skusSeen: 0, sourcesUpdated: 0 },
    ]);
    await new Promise((r) => setTimeout(r, 3000)); // three of the server's ticks
    expect(stub.requests.length).toBe(from);
    expect(await visibleStock()).toBe(8);
    await db().upstreamConnection.update({ where: { id: connectionId }, data: { breakerOpenUntil: null } });
    await shows(32);
  });

  it("issue 26.1: one process at a time reads a connection; sku:refresh-stock runs it at once", async () => {
    await app.stop(); // no more ticks: this test counts every request
    upstream.stock = 11;
    upstream.raw = null;
    const from = stub.requests.length;
    const plain = stub.answer;
    let release = () => {};
    const working = new Promise<void>((r) => (release = r));
    stub.answer = (req) => ({ ...plain(req), heldUntil: working }); // a slow upstream: the first caller holds the lease meanwhile
    const first = refreshSourceStock({ connectionId });
    await waitFor(() => stub.requests.length - from === 1, 10_000);
    const second = await refreshSourceStock({ connectionId });
    release();
    stub.answer = plain;
    expect(second[0].outcome).toBe("skipped_busy");
    expect((await first)[0].outcome).toBe("done");
    expect(stub.requests.length - from).toBe(1);
    expect(await lastStock()).toBe(11);

    upstream.stock = 12;
    const cli = await runCli(["sku:refresh-stock", "--connection", String(connectionId)], { DATABASE_URL: url });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.json).toEqual({
      connections: [{ connection_id: connectionId, outcome: "done", requests: 1, skus_seen: 1, sources_updated: 1 }],
    });
    expect(await lastStock()).toBe(12);
    const bad = await runCli(["sku:refresh-stock", "--connection", "x"], { DATABASE_URL: url });
    expect(bad.code).toBe(2);

    // A source added after the token would be missed by the incremental sync: its connection reads from 0 again.
    const token = async () => (await db().upstreamConnection.findUniqueOrThrow({ where: { id: connectionId } })).stockSyncToken;
    expect(await token()).toBe(TOKEN);
    const other = await makeProduct();
    await editSkuSources({
      skuCode: other.sku.skuCode,
      change: { op: "add-upstream", connectionId, upstreamSkuId: 777, maxCostCents: null },
      actor: SYSTEM_ACTOR,
    });
    expect(await token()).toBeNull();
    await refreshSourceStock({ connectionId });
    expect(stub.requests.at(-1)).toContain("updated_after=0&");
    expect(await token()).toBe(TOKEN);
  }, 120_000);
});
