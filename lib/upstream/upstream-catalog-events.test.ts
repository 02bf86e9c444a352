import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { runCli } from "../testing/run-cli";
import { startStubUpstream, type StubUpstream } from "../testing/stub-upstream";
import { signedRawRequest } from "../testing/test-client";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { editSkuSources } from "./edit-sku-sources";
import type { ProductDetail } from "@/lib/testing/wire-types";

// Issue 26.1: "the last known stock of the enabled upstream sources (from
// imports, catalogue events or a stock refresh)". We register our callback
// URL as the catalogue webhook at a Profile U upstream (a local HTTP server
// here), then that upstream's signed `catalog.updated` events, POSTed to the
// real built server, set the stock a downstream sees. Polled within BOUND_MS.

const BOUND_MS = 5000; // the ~0.3 s catalogue refresh, with room for a shared 2-core machine
let url: string;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let stub: StubUpstream;
let app: AppServer;
let connectionId: number;
let product: { id: number };
let sourceId: number;
const upstreamKey = { apiKey: "up-key", apiSecret: "up-secret-for-events" };
const webhooks: string[] = [];

beforeAll(async () => {
  url = await useTestDatabase();
  buyer = await makeBuyer({ pointsCents: 1000n });
  stub = await startStubUpstream();
  stub.answer = ({ method, path, body }) => {
    if (path.startsWith("/ping")) return { body: { ok: true, balance: "100.00" } };
    if (method === "PUT" && path === "/catalog-webhook") {
      webhooks.push((JSON.parse(body) as { url: string }).url);
      return { body: { ok: true, url: webhooks.at(-1) } };
    }
    return { status: 404 };
  };
  connectionId = (
    await addUpstreamConnection({ name: "events", baseUrl: stub.origin, profile: "U", ...upstreamKey }, { actor: SYSTEM_ACTOR })
  ).id;
  const made = await makeProduct({ cardKeys: cardKeysFor("EV", 3) });
  product = made.product;
  const list = await editSkuSources({
    skuCode: made.sku.skuCode,
    change: { op: "add-upstream", connectionId, upstreamSkuId: 601, maxCostCents: null },
    actor: SYSTEM_ACTOR,
  });
  sourceId = list.sources.find((s) => s.kind === "upstream")!.id!;
  app = await startAppServer(url);
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await stub?.close();
});

async function visibleStock(): Promise<number> {
  const res = await signedRawRequest(app.baseUrl, buyer, {
    method: "GET",
    path: `/api/v1/upstream/products/${product.id}`,
    timestamp: Math.floor(Date.now() / 1000),
  });
  return res.json<ProductDetail>().skus[0].stock_quantity;
}

async function shows(expected: number) {
  const t0 = Date.now();
  let last: number | undefined;
  while (Date.now() - t0 < BOUND_MS) {
    if ((last = await visibleStock()) === expected) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(last).toBe(expected);
}

const lastStock = async () => (await db().skuSource.findUniqueOrThrow({ where: { id: sourceId } })).lastStock;

/** The upstream's event for SKU 601, as it signs and sends it (docs/protocol.md#catalogue-events). */
const event = (stock: unknown, updatedAt: string) =>
  JSON.stringify({
    event: "catalog.updated",
    ok: true,
    timestamp: Math.floor(Date.now() / 1000),
    products: [
      {
        id: 60,
        updated_at: updatedAt,
        is_active: true,
        price_amount: "5.00",
        skus: [{ id: 601, price_amount: "5.00", stock_status: "available", stock_quantity: stock, is_active: true }],
      },
    ],
  });

const send = (body: string, opts: { secret?: string; timestamp?: number } = {}) =>
  signedRawRequest(
    app.baseUrl,
    { apiKey: upstreamKey.apiKey, apiSecret: opts.secret ?? upstreamKey.apiSecret },
    { method: "POST", path: `/api/upstream-callbacks/${connectionId}`, body, timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000) },
  );

describe("issue 26.1: catalogue events from an upstream", () => {
  it("issue 26.1: upstream:catalog-webhook registers our callback URL at the upstream (Profile U, UPSTREAM_CALLBACK_BASE_URL)", async () => {
    const none = await runCli(["upstream:catalog-webhook", "--connection", String(connectionId)], { DATABASE_URL: url });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("UPSTREAM_CALLBACK_BASE_URL");
    const ok = await runCli(["upstream:catalog-webhook", "--connection", String(connectionId)], {
      DATABASE_URL: url,
      UPSTREAM_CALLBACK_BASE_URL: "https://shop.example/",
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toEqual({ url: `https://shop.example/api/upstream-callbacks/${connectionId}` });
    expect(webhooks).toEqual([`https://shop.example/api/upstream-callbacks/${connectionId}`]);
  }, 120_000);

  it("issue 26.1: a signed event sets the stock once; a replayed, older, badly signed, hostile or oversized one changes nothing", async () => {
    await shows(3); // our keys; the upstream SKU never seen counts 0
    const first = event(8, "2026-11-27T06:00:00.000Z");
    const ts = Math.floor(Date.now() / 1000);
    const res = await send(first, { timestamp: ts });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({ ok: true, stock_updated: 1 });
    await shows(11);

    // The same request again (a replay), and an older event arriving late: nothing moves.
    await db().skuSource.update({ where: { id: sourceId }, data: { lastStock: 4 } }); // what a hop saw since: a replay must not undo it
    await shows(7);
    expect((await send(first, { timestamp: ts })).json()).toEqual({ ok: true, stock_updated: 0 });
    expect((await send(event(50, "2026-11-27T05:59:59.999Z"))).json()).toEqual({ ok: true, stock_updated: 0 });
    // Not signed by the connection's secret, or outside the time window: 401.
    expect((await send(event(60, "2026-11-27T06:00:01.000Z"), { secret: "wrong" })).status).toBe(401);
    expect((await send(event(60, "2026-11-27T06:00:01.000Z"), { timestamp: ts - 3600 })).status).toBe(401);
    // Hostile figures: refused whole.
    for (const stock of [-5, 2 ** 31, 2.5, "9", null]) {
      const r = await send(event(stock, "2026-11-27T06:00:02.000Z"));
      expect(r.status, String(stock)).toBe(400);
    }
    // Larger than the 1 MiB every endpoint accepts: 413 before it is read.
    expect(
      (await send(event(1, "2026-11-27T06:00:03.000Z").replace('"ok":true', `"pad":"${"x".repeat(1_100_000)}","ok":true`))).status,
    ).toBe(413);
    expect(await lastStock()).toBe(4);
    expect(await visibleStock()).toBe(7);

    // A newer event applies; unlimited upstream stock (-1) makes the SKU unlimited.
    expect((await send(event(-1, "2026-11-27T06:00:04.000Z"))).json()).toEqual({ ok: true, stock_updated: 1 });
    await shows(-1);
  });
});
