import { SYSTEM_ACTOR } from "../audit/actor";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { deliverOrder } from "../fulfillment/deliver-order";
import { failOrder } from "../fulfillment/fail-order";
import { createOrder } from "../orders/create-order";
import { signedHeaders, supplierClient } from "../protocol/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { waitFor } from "../testing/callback-receiver";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "../testing/factories";
import { startFaultProxy, type Fault, type FaultProxy } from "../testing/fault-proxy";
import { balanceOf, ledgerSum } from "../testing/points";
import { cloneTestDatabase, onDatabase, useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { importUpstreamCatalog } from "./import-upstream-catalog";

// Issue 4, upstream fulfillment, with two real instances of the app on
// loopback, each with its own database: A buys from B through the protocol.
// A fault-injecting proxy sits in front of B; A runs its job worker in the
// server with fast polls. Profile P connection for the purchase paths, a
// Profile U connection for signed callbacks (B → A).

let aUrl: string;
let bUrl: string;
let A: AppServer;
let B: AppServer;
let proxyB: FaultProxy; // A → B
let proxyHang: FaultProxy; // A → B, a supplier that stops answering
let proxyA: FaultProxy; // B's callbacks → A (A's port is known only after it starts)
let bPool: pg.Pool;
let seed: Awaited<ReturnType<typeof seedB>>;
let connP: number;
let connU: number;
let connHang: number;

async function seedB() {
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  const account = await makeBuyer({ pointsCents: 100_000n }); // A's account at B: 1000.00
  const categoryId = (await makeCategory()).id;
  const auto = (prefix: string) => makeProduct({ categoryId, priceCents: 1000n, cardKeys: cardKeysFor(prefix, 3) });
  return {
    account,
    happy: await auto("HAPPY"),
    lost500: await auto("LOST500"),
    slow: await auto("SLOW"),
    refused500: await auto("REFUSED500"),
    silent: await auto("SILENT"),
    manual: await makeProduct({
      categoryId,
      fulfillmentType: "manual",
      priceCents: 500n,
      stockQuantity: 10,
      manualFormSchema: { fields: [{ key: "account", type: "text", required: true, label: { "zh-CN": "账号", en: "Account" } }] },
    }),
    manualU: await makeProduct({ categoryId, fulfillmentType: "manual", priceCents: 700n, stockQuantity: null }),
  };
}

const bQuery = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await bPool.query(sql, params)).rows as T[];

beforeAll(async () => {
  aUrl = await useTestDatabase();
  bUrl = await cloneTestDatabase();
  bPool = new pg.Pool({ connectionString: bUrl, max: 2 });
  seed = await onDatabase(bUrl, seedB);
  [B, proxyA] = await Promise.all([
    startAppServer(bUrl, {
      WORKER_IN_SERVER: "true",
      WORKER_POLL_INTERVAL_MS: "100",
      CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
      CALLBACK_RETRY_SCHEDULE: "0.2,0.2,0.2",
    }),
    startFaultProxy(),
  ]);
  proxyB = await startFaultProxy(B.baseUrl);
  proxyHang = await startFaultProxy(B.baseUrl);
  A = await startAppServer(aUrl, {
    WORKER_IN_SERVER: "true",
    WORKER_POLL_INTERVAL_MS: "100",
    WORKER_SWEEP_INTERVAL_MS: "500",
    UPSTREAM_POLL_SCHEDULE: "0.2,0.3",
    UPSTREAM_HTTP_TIMEOUT_MS: "1500",
    UPSTREAM_CALLBACK_BASE_URL: proxyA.origin,
  });
  proxyA.target = A.baseUrl;
  const creds = { apiKey: seed.account.apiKey, apiSecret: seed.account.apiSecret };
  connP = (
    await addUpstreamConnection(
      { name: "B (P)", baseUrl: proxyB.origin, profile: "P", ...creds, maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
  connU = (
    await addUpstreamConnection(
      { name: "B (U)", baseUrl: proxyB.origin, profile: "U", ...creds, maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
  connHang = (
    await addUpstreamConnection(
      { name: "B (silent)", baseUrl: proxyHang.origin, profile: "P", ...creds, maxWaitSeconds: 3 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
  for (const id of [connP, connU, connHang]) await importUpstreamCatalog({ connectionId: id, markupPercent: "10", actor: SYSTEM_ACTOR });
}, 180_000);

afterAll(async () => {
  await Promise.all([A?.stop(), B?.stop()]);
  await Promise.all([proxyA?.close(), proxyB?.close(), proxyHang?.close()]);
  await bPool?.end();
});

/** Our SKU mapped from B's SKU through one connection. */
const localSku = (connectionId: number, bSkuId: number) =>
  db().sku.findFirstOrThrow({ where: { upstreamSkuId: bSkuId, product: { upstreamConnectionId: connectionId } } });

let seq = 0;
async function orderOnA(
  connectionId: number,
  bSkuId: number,
  opts: { profile?: "U" | "P"; form?: Record<string, unknown>; pointsCents?: bigint } = {},
) {
  const buyer = await makeBuyer({ pointsCents: opts.pointsCents ?? 100_000n });
  const sku = await localSku(connectionId, bSkuId);
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: opts.profile ?? "P",
    input: { downstreamOrderNo: `UPF-${Date.now()}-${++seq}`, skuId: sku.id, quantity: 1, manualFormData: opts.form },
  });
  return { buyer, sku, order };
}

const statusOf = async (orderId: number) => (await db().order.findUniqueOrThrow({ where: { id: orderId } })).status;
const bOrders = (downstreamOrderNo: string) =>
  bQuery<{ id: number; orderNo: string; status: string; manualFormData: unknown }>(
    `SELECT "id", "orderNo", "status"::text AS status, "manualFormData" FROM "Order" WHERE "downstreamOrderNo" = $1`,
    [downstreamOrderNo],
  );
const bDebits = async (orderId: number) =>
  (await bQuery<{ n: number }>(`SELECT count(*)::int AS n FROM "PointsLedger" WHERE "orderId" = $1 AND "deltaCents" < 0`, [orderId]))[0].n;
const createsFor = (proxy: FaultProxy, downstreamOrderNo: string) =>
  proxy.requests.filter((r) => r.method === "POST" && r.url.endsWith("/orders") && r.body.includes(`"${downstreamOrderNo}"`));

describe("A buys from B through the protocol", () => {
  it("an upstream order on A completes through B's auto delivery; our sale amount stays ours, the cost is recorded", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const sku = await localSku(connP, seed.happy.sku.id);
    expect(sku.priceCents).toBe(1100n); // 10.00 + 10 %
    const client = supplierClient(A.baseUrl, "/api/v1/provider", buyer);
    const res = await client.post("/orders", { downstream_order_no: `HAPPY-${Date.now()}`, sku_id: sku.id, quantity: 1 });
    expect(res.status).toBe(200);
    const created = (await res.json()) as { order_id: number };
    expect(created).toMatchObject({ status: "processing", amount: "11.00" });

    await waitFor(async () => (await statusOf(created.order_id)) === "delivered", 20_000);
    const ours = await db().order.findUniqueOrThrow({
      where: { id: created.order_id },
      include: { upstreamPurchase: true, fulfillment: true },
    });
    const purchase = ours.upstreamPurchase!;
    expect(purchase).toMatchObject({ connectionId: connP, downstreamOrderNo: ours.orderNo, status: "delivered", costCents: 1000n });
    expect(ours.amountCents).toBe(1100n); // never replaced by the cost
    expect(ours.fulfillment?.source).toBe("upstream");

    const [theirs] = await bOrders(ours.orderNo);
    expect(theirs).toMatchObject({ id: purchase.upstreamOrderId, status: "delivered" });
    const read = (await (await client.get(`/orders/${created.order_id}`)).json()) as { fulfillment: { delivery_data: string[] } };
    expect((await bQuery(`SELECT "id" FROM "CardKey" WHERE "orderId" = $1`, [theirs.id])).length).toBe(1);
    expect(read).toMatchObject({ status: "delivered", amount: "11.00", fulfillment: { type: "provider_delivery", status: "delivered" } }); // D21
    expect(read.fulfillment.delivery_data).toHaveLength(1);
    expect(read.fulfillment.delivery_data[0]).toMatch(/^HAPPY-/);
    expect(await balanceOf(buyer.user.id)).toBe(10_000n - 1100n);
    expect(await ledgerSum(buyer.user.id)).toBe(await balanceOf(buyer.user.id));
    expect(A.output()).not.toContain(seed.account.apiSecret);
  }, 60_000);

  it("B answering 500 after processing, timing out, or 500 before processing: exactly one purchase on B each", async () => {
    const faults = new Map<number, Fault>([
      [seed.lost500.sku.id, "forward-then-500"],
      [seed.slow.sku.id, "forward-then-hang"],
      [seed.refused500.sku.id, "500"],
    ]);
    const faulted = new Set<number>();
    proxyB.fault = (r) => {
      if (r.method !== "POST" || !r.url.endsWith("/orders")) return "pass";
      const skuId = (JSON.parse(r.body) as { sku_id: number }).sku_id;
      if (!faults.has(skuId) || faulted.has(skuId)) return "pass";
      faulted.add(skuId);
      return faults.get(skuId)!;
    };
    try {
      const orders = [];
      for (const bSkuId of faults.keys()) orders.push(await orderOnA(connP, bSkuId));
      for (const { order } of orders) await waitFor(async () => (await statusOf(order.id)) === "delivered", 30_000);
      for (const { order, buyer } of orders) {
        const creates = createsFor(proxyB, order.orderNo);
        expect(creates.length).toBeGreaterThanOrEqual(2); // the first answer was lost, the same create was repeated
        expect(new Set(creates.map((c) => c.body)).size).toBe(1); // byte for byte the same body
        const theirs = await bOrders(order.orderNo);
        expect(theirs).toHaveLength(1);
        expect(await bDebits(theirs[0].id)).toBe(1);
        const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } });
        expect(purchase).toMatchObject({ upstreamOrderId: theirs[0].id, status: "delivered", costCents: 1000n });
        expect(await balanceOf(buyer.user.id)).toBe(100_000n - 1100n);
      }
      expect(createsFor(proxyB, orders[0].order.orderNo)[0]).toMatchObject({ fault: "forward-then-500", targetStatus: 200 });
      expect(createsFor(proxyB, orders[1].order.orderNo)[0]).toMatchObject({ fault: "forward-then-hang", targetStatus: 200 });
      // B's books: its balance still equals its ledger.
      const [acct] = await bQuery<{ balance: string; ledger: string }>(
        `SELECT u."balanceCents"::text AS balance, (SELECT sum("deltaCents") FROM "PointsLedger" l WHERE l."userId" = u."id")::text AS ledger FROM "User" u WHERE u."id" = $1`,
        [seed.account.user.id],
      );
      expect(acct.balance).toBe(acct.ledger);
    } finally {
      proxyB.fault = () => "pass";
    }
  }, 90_000);

  it("B never answering moves A's order to unknown_review after the connection's max wait (D25); public status stays processing", async () => {
    proxyHang.fault = () => "hang";
    const { order, buyer } = await orderOnA(connHang, seed.silent.sku.id);
    await waitFor(async () => (await statusOf(order.id)) === "unknown_review", 20_000, 100);
    const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } });
    expect(purchase).toMatchObject({ status: "unknown", upstreamOrderId: null });
    expect(purchase.lastError).toMatch(/no answer within 1500 ms/);
    expect(await bOrders(order.orderNo)).toHaveLength(0);
    expect(await balanceOf(buyer.user.id)).toBe(100_000n - 1100n); // not refunded: an administrator decides
    const read = (await (await supplierClient(A.baseUrl, "/api/v1/provider", buyer).get(`/orders/${order.id}`)).json()) as {
      status: string;
    };
    expect(read.status).toBe("processing");
  }, 60_000);

  it("B failing the order fails A's and refunds it (D22) with our own reason (issue 8.3); the normalised form reaches B", async () => {
    const { order, buyer, sku } = await orderOnA(connP, seed.manual.sku.id, { form: { account: "  alice  " } });
    expect(sku.stockQuantity).toBe(10); // mirrored from B
    // Stored with the order, in its transaction: our order number goes upstream; deadline = now + max wait (D25).
    const queued = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } });
    expect(queued).toMatchObject({ connectionId: connP, downstreamOrderNo: order.orderNo, upstreamSkuId: seed.manual.sku.id });
    expect(Math.abs(queued.deadlineAt.getTime() - order.createdAt.getTime() - 60_000)).toBeLessThan(5_000);
    const theirs = await waitFor(async () => (await bOrders(order.orderNo))[0], 20_000);
    expect(theirs.manualFormData).toEqual({ account: "alice" });
    await waitFor(async () => (await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } })).status === "placed");
    await onDatabase(bUrl, () => failOrder({ orderNo: theirs.orderNo, reason: "no such account at B", actor: SYSTEM_ACTOR }));
    await waitFor(async () => (await statusOf(order.id)) === "failed", 20_000);
    const ours = await db().order.findUniqueOrThrow({ where: { id: order.id }, include: { upstreamPurchase: true } });
    // Issue 8.3: B's text is never echoed to our buyer.
    expect(ours.errorMessage).toBe("the upstream supplier failed the order");
    expect(ours.upstreamPurchase).toMatchObject({ status: "failed", upstreamOrderId: theirs.id });
    expect(await balanceOf(buyer.user.id)).toBe(100_000n);
    expect(await ledgerSum(buyer.user.id)).toBe(100_000n);
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).stockQuantity).toBe(10); // released
  }, 60_000);
});

describe("purchase task at order creation", () => {
  it("a SKU of a disabled connection is refused and nothing is written; an unmapped upstream product waits like a manual one", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const sku = await localSku(connP, seed.happy.sku.id);
    await db().upstreamConnection.update({ where: { id: connP }, data: { isEnabled: false } });
    try {
      const err = await createOrder({
        credential,
        profile: "P",
        input: { downstreamOrderNo: `OFF-${Date.now()}`, skuId: sku.id, quantity: 1 },
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "sku_unavailable" });
      expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(0);
      expect(await balanceOf(buyer.user.id)).toBe(10_000n);
    } finally {
      await db().upstreamConnection.update({ where: { id: connP }, data: { isEnabled: true } });
    }
    const unmapped = await makeProduct({ fulfillmentType: "upstream", priceCents: 100n, stockQuantity: null });
    const { order } = await createOrder({
      credential,
      profile: "P",
      input: { downstreamOrderNo: `UNMAPPED-${Date.now()}`, skuId: unmapped.sku.id, quantity: 1 },
    });
    expect(order.status).toBe("processing");
    expect(await db().upstreamPurchase.count({ where: { orderId: order.id } })).toBe(0);
  });
});

describe("Profile U upstream callbacks", () => {
  const callbackPath = (id: number) => `/api/upstream-callbacks/${id}`;
  const post = (connectionId: number, body: string, creds: { apiKey: string; apiSecret: string }) =>
    fetch(`${A.baseUrl}${callbackPath(connectionId)}`, {
      method: "POST",
      headers: signedHeaders(creds, "POST", callbackPath(connectionId), body),
      body,
    });

  it("B's signed callback reaches A's endpoint and A delivers after confirming by a poll", async () => {
    const { order } = await orderOnA(connU, seed.manualU.sku.id, { profile: "U" });
    const theirs = await waitFor(async () => (await bOrders(order.orderNo))[0], 20_000);
    await onDatabase(bUrl, () => deliverOrder({ orderNo: theirs.orderNo, payloadText: "U-LINE-1\nU-LINE-2", actor: SYSTEM_ACTOR })); // B's product is manual: its operator's lines, however many (decision 0052)
    await waitFor(async () => (await statusOf(order.id)) === "delivered", 20_000);
    const f = await db().fulfillment.findUniqueOrThrow({ where: { orderId: order.id } });
    expect(f.source).toBe("upstream");
    await waitFor(() => proxyA.requests.some((r) => r.url === callbackPath(connU) && r.targetStatus === 200), 10_000);
  }, 60_000);

  it("verifies before acting: unsigned, wrong secret or another connection's key → 401; another connection's order → 404", async () => {
    const good = { apiKey: seed.account.apiKey, apiSecret: seed.account.apiSecret };
    const { order } = await orderOnA(connP, seed.manual.sku.id, { form: { account: "bob" } }); // a purchase of the P connection
    const body = JSON.stringify({ event: "order.updated", ok: true, downstream_order_no: order.orderNo, status: "delivered" });
    const unsigned = await fetch(`${A.baseUrl}${callbackPath(connU)}`, { method: "POST", body });
    expect(unsigned.status).toBe(401);
    expect((await post(connU, body, { ...good, apiSecret: "wrong" })).status).toBe(401);
    expect((await post(connP, body, good)).status).toBe(401); // a P connection takes no callbacks
    const foreign = await post(connU, body, good); // signed right, but not this connection's purchase
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ ok: false, error_code: "order_not_found" });
    expect(await statusOf(order.id)).toBe("processing");
  }, 30_000);
});
