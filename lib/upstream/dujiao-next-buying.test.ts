import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { supplierClient } from "../protocol/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { waitFor } from "../testing/callback-receiver";
import { makeBuyer } from "../testing/factories";
import { startFaultProxy, type FaultProxy } from "../testing/fault-proxy";
import { FAKE_DUJIAO_SKU_ID, startFakeDujiaoNext, type FakeDujiaoNext } from "../testing/fake-dujiao-next";
import { balanceOf, ledgerSum } from "../testing/points";
import { startStubOrderSupplier, type StubOrderSupplier } from "../testing/stub-order-supplier";
import { runCli } from "../testing/run-cli";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { editSkuSources } from "./edit-sku-sources";
import { importUpstreamCatalog } from "./import-upstream-catalog";
import { runPurchaseJob } from "./run-purchase";

// Issue 37.3, "Done when": we buy from a Dujiao-Next supplier (a fake speaking
// its protocol exactly as its Go handler answers, checking our signatures with
// its rule and ±60 s, sending callbacks as its callback service does). The
// real app server runs the purchases (its job worker) and receives the
// callbacks on its real endpoint; buyers order over real HTTP. Polls are 6 s
// apart, so a delivery within 2 s of the supplier's callback came by the callback.

let url: string;
let A: AppServer;
let proxyA: FaultProxy; // the supplier's callbacks → A (A's port is known only after it starts)
let dn: FakeDujiaoNext;
let second: StubOrderSupplier;
let conn: number;
let secondConn: number;

beforeAll(async () => {
  Object.assign(process.env, { UPSTREAM_HTTP_TIMEOUT_MS: "1500", UPSTREAM_POLL_SCHEDULE: "6" });
  url = await useTestDatabase();
  [dn, second, proxyA] = await Promise.all([startFakeDujiaoNext(), startStubOrderSupplier("SECOND", "3.00"), startFaultProxy()]);
  A = await startAppServer(url, {
    WORKER_IN_SERVER: "true",
    WORKER_POLL_INTERVAL_MS: "100",
    WORKER_SWEEP_INTERVAL_MS: "500",
    UPSTREAM_POLL_SCHEDULE: "6",
    UPSTREAM_HTTP_TIMEOUT_MS: "1500",
    UPSTREAM_CALLBACK_BASE_URL: proxyA.origin,
    UPSTREAM_BREAKER_FAILURES: "50",
  });
  proxyA.target = A.baseUrl;
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  secondConn = (
    await addUpstreamConnection(
      { name: "second", baseUrl: second.origin, profile: "P", apiKey: "k2", apiSecret: "s2", maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
}, 180_000);

afterAll(async () => {
  await A?.stop();
  await Promise.all([dn?.close(), second?.close(), proxyA?.close()]);
});

const dujiaoInput = () => ({
  name: "Dujiao shop",
  baseUrl: dn.origin,
  protocol: "dujiao-next" as const,
  apiKey: dn.apiKey,
  apiSecret: dn.apiSecret,
  maxWaitSeconds: 120,
});
const localSku = () => db().sku.findFirstOrThrow({ where: { upstreamSkuId: FAKE_DUJIAO_SKU_ID, product: { upstreamConnectionId: conn } } });
const statusOf = async (orderId: number) => (await db().order.findUniqueOrThrow({ where: { id: orderId } })).status;

let seq = 0;
/** A downstream buyer's order of the imported SKU, over HTTP (Profile P), and our order number. */
async function buy(pointsCents = 10_000n) {
  const buyer = await makeBuyer({ pointsCents });
  const sku = await localSku();
  const res = await supplierClient(A.baseUrl, "/api/v1/provider", buyer).post("/orders", {
    downstream_order_no: `DNB-${Date.now()}-${++seq}`,
    sku_id: sku.id,
    quantity: 1,
  });
  expect(res.status).toBe(200);
  const { order_id } = (await res.json()) as { order_id: number };
  const order = await db().order.findUniqueOrThrow({ where: { id: order_id } });
  return { buyer, orderId: order_id, orderNo: order.orderNo };
}
const purchaseOf = (orderId: number) => db().upstreamPurchase.findUniqueOrThrow({ where: { orderId } });

describe("issue 37.3: buying from a Dujiao-Next supplier", () => {
  it("issue 37.3: a connection is added after a signed ping; a supplier in another currency, or answering garbage, is refused and nothing is written", async () => {
    dn.currency = "USD";
    await expect(addUpstreamConnection(dujiaoInput(), { actor: SYSTEM_ACTOR })).rejects.toThrow(/currency is USD, ours is CNY/);
    dn.currency = "CNY";
    for (const garbage of [
      '{"ok":true,"user_id":"7","balance":"1.00","currency":"CNY"}',
      "<html>",
      "[]",
      `{"ok":true,"x":"${"a".repeat(11 << 20)}"}`,
    ]) {
      dn.override.set("POST /ping", garbage);
      await expect(addUpstreamConnection(dujiaoInput(), { actor: SYSTEM_ACTOR })).rejects.toThrow(/did not answer the ping correctly/);
    }
    dn.override.clear();
    await expect(addUpstreamConnection({ ...dujiaoInput(), protocol: "acg" as never }, { actor: SYSTEM_ACTOR })).rejects.toThrow(
      /protocol: must be "svc" or "dujiao-next"/,
    );
    expect(await db().upstreamConnection.count({ where: { name: "Dujiao shop" } })).toBe(0);

    // The operator's command: a bad --protocol, or a --profile with dujiao-next, is a usage error.
    const add = ["upstream:add", "--name", "Dujiao shop", "--base-url", dn.origin, "--api-key", dn.apiKey, "--api-secret", dn.apiSecret];
    const cli = <T>(...extra: string[]) => runCli<T>([...add, ...extra], { DATABASE_URL: url });
    const [bogus, withProfile] = await Promise.all([cli("--protocol", "dujiao"), cli("--protocol", "dujiao-next", "--profile", "P")]);
    expect([bogus.code, withProfile.code]).toEqual([2, 2]);
    expect(bogus.stderr).toMatch(/--protocol: must be "svc" or "dujiao-next"/);
    expect(withProfile.stderr).toMatch(/--profile: does not apply to --protocol dujiao-next/);
    expect(await db().upstreamConnection.count({ where: { name: "Dujiao shop" } })).toBe(0);
    const added = await cli<{ id: number }>("--protocol", "dujiao-next", "--max-wait-seconds", "120");
    expect(added.code).toBe(0);
    conn = added.json.id;
    expect(await db().upstreamConnection.findUniqueOrThrow({ where: { id: conn } })).toMatchObject({
      protocol: "dujiao_next",
      lastBalance: "100.00",
    });
    expect(dn.authFailures).toEqual([]); // every request passed their signature check
  });

  it("issue 37.3: their catalogue is imported (their i18n maps, two-decimal prices plus our markup)", async () => {
    const r = await importUpstreamCatalog({ connectionId: conn, markupPercent: "10", actor: SYSTEM_ACTOR });
    expect(r).toMatchObject({ categoriesCreated: 1, productsCreated: 1, skusCreated: 1, skipped: [] });
    const sku = await localSku();
    expect(sku).toMatchObject({ priceCents: 385n, upstreamPriceCents: 350n, stockQuantity: 100, isActive: true });
    const product = await db().product.findUniqueOrThrow({ where: { id: sku.productId } });
    expect(product).toMatchObject({ title: { "zh-CN": "游戏点卡", en: "Game card" }, fulfillmentType: "upstream", isActive: true });
  });

  it("issue 37.3: a buyer's order is bought there and delivered by their signed callback (answered 200 ok:true), one key per line", async () => {
    dn.decide = () => "hold";
    const { buyer, orderId, orderNo } = await buy();
    await waitFor(async () => (await purchaseOf(orderId)).upstreamOrderId !== null, 10_000);
    const [theirs] = dn.ordersOf(orderNo);
    expect(theirs.callbackUrl).toBe(`${proxyA.origin}/api/upstream-callbacks/${conn}`);
    const t0 = Date.now();
    await dn.deliver(theirs.id);
    expect(dn.callbacks.at(-1)).toEqual({ orderId: theirs.id, status: 200, ok: true });
    await waitFor(async () => (await statusOf(orderId)) === "delivered", 10_000);
    expect(Date.now() - t0).toBeLessThan(2_000); // the callback's poll, not the 6 s schedule
    const read = (await (await supplierClient(A.baseUrl, "/api/v1/provider", buyer).get(`/orders/${orderId}`)).json()) as {
      fulfillment: { delivery_data: string[] };
    };
    expect(read.fulfillment.delivery_data).toEqual([`DN-${theirs.orderNo}-1`]);
    expect(await purchaseOf(orderId)).toMatchObject({ status: "delivered", costCents: 350n, upstreamOrderId: theirs.id });
    expect(await balanceOf(buyer.user.id)).toBe(10_000n - 385n);
  }, 30_000);

  it("issue 37.3: a callback URL they refuse, a callback lost, forged, old or of another key: polling delivers all the same", async () => {
    dn.decide = () => "hold";
    dn.refusePrivateCallbacks = true; // their SSRF check: 400 invalid_callback_url, nothing stored
    const { orderId, orderNo } = await buy();
    await waitFor(async () => (await purchaseOf(orderId)).upstreamOrderId !== null, 10_000);
    dn.refusePrivateCallbacks = false;
    expect(dn.creates.get(orderNo)).toBe(2); // the same create again, without a callback URL
    expect(dn.ordersOf(orderNo)[0].callbackUrl).toBe("");
    dn.ordersOf(orderNo)[0].callbackUrl = `${proxyA.origin}/api/upstream-callbacks/${conn}`; // to test what we accept
    const [theirs] = dn.ordersOf(orderNo);
    const secret = dn.apiSecret;
    dn.apiSecret = "not-the-secret"; // a forged signature
    await dn.setStatus(theirs.id, "paid");
    dn.apiSecret = secret;
    expect(dn.callbacks.at(-1)).toMatchObject({ status: 401, ok: false });
    // Outside their ±60 s by more than a delivery takes: the timestamp is whole seconds (floored) and is checked
    // against our clock a moment later, so "+61" arrived 60.x s ahead, inside the window, when the two straddled a second.
    for (const skew of [-65, 65]) {
      dn.callbackSkewSeconds = skew;
      await dn.setStatus(theirs.id, "paid");
      expect(dn.callbacks.at(-1)).toMatchObject({ status: 401, ok: false });
    }
    dn.callbackSkewSeconds = 0;
    const key = dn.apiKey;
    dn.apiKey = "another-key"; // another buyer's key at that supplier
    await dn.setStatus(theirs.id, "paid");
    dn.apiKey = key;
    expect(dn.callbacks.at(-1)).toMatchObject({ status: 401, ok: false });
    dn.callbacksOff = true; // the delivery's callback is lost
    await dn.deliver(theirs.id);
    dn.callbacksOff = false;
    await waitFor(async () => (await statusOf(orderId)) === "delivered", 20_000);
  }, 40_000);

  it("issue 37.3: a lost create answer is retried with the same number: exactly one order on their side", async () => {
    dn.decide = () => "deliver";
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const sku = await localSku();
    // The number is our order's: lose the answer to whatever first create arrives.
    const lose = dn.decide;
    let lost = false;
    dn.decide = (no) => {
      if (!lost) dn.loseAnswer.add(no);
      lost = true;
      return lose(no);
    };
    const res = await supplierClient(A.baseUrl, "/api/v1/provider", buyer).post("/orders", {
      downstream_order_no: `DNB-lost-${Date.now()}`,
      sku_id: sku.id,
      quantity: 1,
    });
    const { order_id } = (await res.json()) as { order_id: number };
    const { orderNo } = await db().order.findUniqueOrThrow({ where: { id: order_id } });
    await waitFor(async () => (await statusOf(order_id)) === "delivered", 30_000);
    expect(dn.creates.get(orderNo)).toBeGreaterThanOrEqual(2);
    expect(dn.ordersOf(orderNo)).toHaveLength(1);
    expect((await purchaseOf(order_id)).upstreamOrderId).toBe(dn.ordersOf(orderNo)[0].id);
  }, 45_000);

  it("issue 37.3: never two creates of one number at once, however many runs of the purchase start together", async () => {
    dn.decide = () => "internal_error"; // the first create: 500, nothing stored, a retry is due
    const { orderId, orderNo } = await buy();
    await waitFor(async () => (await purchaseOf(orderId)).lastError !== null, 10_000);
    dn.decide = () => "deliver";
    dn.createDelayMs = 700; // their read-then-insert duplicate check, held open
    try {
      const { id } = await purchaseOf(orderId);
      await Promise.all([runPurchaseJob({ purchaseId: id }), runPurchaseJob({ purchaseId: id }), runPurchaseJob({ purchaseId: id })]);
    } finally {
      dn.createDelayMs = 0;
    }
    await waitFor(async () => (await statusOf(orderId)) === "delivered", 30_000);
    expect(dn.maxInFlight.get(orderNo)).toBe(1);
    expect(dn.ordersOf(orderNo)).toHaveLength(1);
  }, 45_000);

  it("issue 37.3: their states: canceled → our order failed and refunded; payment_failed → failed and refunded; partially_refunded → review", async () => {
    dn.decide = () => "hold";
    const a = await buy();
    await waitFor(async () => (await purchaseOf(a.orderId)).upstreamOrderId !== null, 10_000);
    await dn.setStatus(dn.ordersOf(a.orderNo)[0].id, "canceled");
    await waitFor(async () => (await statusOf(a.orderId)) === "failed", 10_000);
    expect(await balanceOf(a.buyer.user.id)).toBe(10_000n);
    expect(await ledgerSum(a.buyer.user.id)).toBe(10_000n);

    dn.decide = () => "payment_failed";
    const b = await buy();
    await waitFor(async () => (await statusOf(b.orderId)) === "failed", 10_000);
    expect(await balanceOf(b.buyer.user.id)).toBe(10_000n);
    expect(dn.ordersOf(b.orderNo)).toHaveLength(1);

    dn.decide = () => "hold";
    const c = await buy();
    await waitFor(async () => (await purchaseOf(c.orderId)).upstreamOrderId !== null, 10_000);
    await dn.setStatus(dn.ordersOf(c.orderNo)[0].id, "partially_refunded");
    await waitFor(async () => (await statusOf(c.orderId)) === "unknown_review", 10_000);
    expect((await purchaseOf(c.orderId)).lastError).toMatch(/partly refunded/);
  }, 45_000);

  it("issue 37.3: failover: when the Dujiao-Next source refuses for stock, the second source delivers", async () => {
    const sku = await localSku();
    await editSkuSources({
      skuCode: sku.skuCode,
      change: { op: "add-upstream", connectionId: secondConn, upstreamSkuId: 10, maxCostCents: null },
      actor: SYSTEM_ACTOR,
    });
    dn.decide = () => "stock";
    try {
      const { orderId, orderNo } = await buy();
      await waitFor(async () => (await statusOf(orderId)) === "delivered", 20_000);
      const p = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId }, include: { hops: true } });
      expect(p).toMatchObject({ hop: 2, connectionId: secondConn, status: "delivered", downstreamOrderNo: `${orderNo}-2` });
      expect(p.hops).toHaveLength(1);
      expect(p.hops[0]).toMatchObject({ connectionId: conn, status: "failed" });
      expect(p.hops[0].outcome).toMatch(/insufficient_stock/);
      expect(dn.ordersOf(orderNo)).toHaveLength(0);
      expect(second.orders.get(`${orderNo}-2`)?.status).toBe("delivered");
    } finally {
      await editSkuSources({ skuCode: sku.skuCode, change: { op: "remove", position: 2 }, actor: SYSTEM_ACTOR });
    }
  }, 40_000);
});
