import { SYSTEM_ACTOR } from "../audit/actor";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { deliverOrder } from "../fulfillment/deliver-order";
import { createOrder } from "../orders/create-order";
import { openPayload } from "../order-read/order-view";
import { startAppServer, type AppServer } from "../testing/app-server";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "../testing/factories";
import { startFaultProxy, type FaultProxy } from "../testing/fault-proxy";
import { cloneTestDatabase, onDatabase, useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "../upstream/add-upstream-connection";
import { importUpstreamCatalog } from "../upstream/import-upstream-catalog";
import { listJobs } from "./list-jobs";

// Issue 4 crash test: kill -9 the server (and its in-process worker) in the
// middle of a run of manual deliveries (Profile U callbacks) and upstream
// purchases, start it again, and show that every job finishes, nothing is
// bought or delivered twice, and balances equal their ledgers. A buys from B
// (a second app instance with its own database) through a slow proxy, so
// purchases are in flight when the process dies.

const UPSTREAM_ORDERS = 10;
const MANUAL_ORDERS = 10;

let aUrl: string;
let bUrl: string;
let A: AppServer | undefined;
let B: AppServer;
let proxyB: FaultProxy;
let receiver: CallbackReceiver;
let bPool: pg.Pool;

const aEnv = {
  WORKER_IN_SERVER: "true",
  WORKER_CONCURRENCY: "4",
  WORKER_POLL_INTERVAL_MS: "100",
  WORKER_SWEEP_INTERVAL_MS: "500",
  UPSTREAM_POLL_SCHEDULE: "0.2",
  UPSTREAM_HTTP_TIMEOUT_MS: "3000",
  CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
  CALLBACK_RETRY_SCHEDULE: "0.2,0.2,0.2,0.2",
};

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // order creation here checks the loopback callback URL
  aUrl = await useTestDatabase();
  bUrl = await cloneTestDatabase();
  bPool = new pg.Pool({ connectionString: bUrl, max: 2 });
  receiver = await startCallbackReceiver();
  const seed = await onDatabase(bUrl, async () => {
    await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
    const account = await makeBuyer({ pointsCents: 100_000n });
    const { sku } = await makeProduct({
      categoryId: (await makeCategory()).id,
      priceCents: 100n,
      cardKeys: cardKeysFor("CRASH", UPSTREAM_ORDERS + 5),
    });
    return { account, sku };
  });
  B = await startAppServer(bUrl);
  proxyB = await startFaultProxy(B.baseUrl);
  const conn = await addUpstreamConnection(
    {
      name: "B",
      baseUrl: proxyB.origin,
      profile: "P",
      apiKey: seed.account.apiKey,
      apiSecret: seed.account.apiSecret,
    },
    { actor: SYSTEM_ACTOR },
  );
  await importUpstreamCatalog({ connectionId: conn.id, actor: SYSTEM_ACTOR });
  A = await startAppServer(aUrl, aEnv);
}, 180_000);

afterAll(async () => {
  await Promise.all([A?.stop(), B?.stop()]);
  await proxyB?.close();
  await receiver?.close();
  await bPool?.end();
});

describe("crash in the middle of deliveries and upstream purchases", () => {
  it("after kill -9 and a restart every job finishes once; no purchase, card key or delivery twice; balances equal ledgers", async () => {
    const buyer = await makeBuyer({ pointsCents: 1_000_000n });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const upstreamSku = await db().sku.findFirstOrThrow({ where: { product: { fulfillmentType: "upstream" } } });
    const { sku: manualSku } = await makeProduct({ fulfillmentType: "manual", priceCents: 300n, stockQuantity: null });
    proxyB.delayMs = 300; // a slow supplier: purchases are in flight when the server dies
    receiver.respond = () => ({ status: 200, delayMs: 100 });

    const order = (skuId: number, i: number) =>
      createOrder({
        credential,
        profile: "U",
        input: { downstreamOrderNo: `CRASH-${skuId}-${i}`, skuId, quantity: 1, callbackUrl: `${receiver.origin}/cb/${skuId}/${i}` },
      }).then((r) => r.order);
    const upstreamOrders = [];
    for (let i = 0; i < UPSTREAM_ORDERS; i++) upstreamOrders.push(await order(upstreamSku.id, i));
    const manualOrders = [];
    for (let i = 0; i < MANUAL_ORDERS; i++) manualOrders.push(await order(manualSku.id, i));
    await Promise.all(manualOrders.map((o) => deliverOrder({ orderNo: o.orderNo, payloadText: `MANUAL-${o.id}`, actor: SYSTEM_ACTOR })));

    // Kill as soon as the first purchase is done, while the others are in flight.
    const ids = upstreamOrders.map((o) => o.id);
    await waitFor(async () => (await db().order.count({ where: { id: { in: ids }, status: "delivered" } })) >= 1, 30_000, 20);
    await A!.kill();
    const doneAtKill = await db().order.count({ where: { id: { in: ids }, status: "delivered" } });
    const callbacksAtKill = await db().callback.count({ where: { status: "delivered" } });
    expect(doneAtKill).toBeLessThan(UPSTREAM_ORDERS); // the crash really interrupted the run
    expect(await listJobs({ limit: 1000 })).not.toHaveLength(0);

    A = await startAppServer(aUrl, aEnv);
    const all = [...ids, ...manualOrders.map((o) => o.id)];
    await waitFor(async () => (await db().order.count({ where: { id: { in: all }, status: "delivered" } })) === all.length, 60_000, 100);
    await waitFor(async () => (await db().callback.count({ where: { status: "delivered" } })) === all.length, 60_000, 100);
    await waitFor(async () => (await listJobs({ limit: 1000 })).length === 0, 30_000, 100); // every job finished; none failed

    // Upstream purchases: one per order, one order on B each, each B order one key, no key twice.
    const purchases = await db().upstreamPurchase.findMany({ where: { orderId: { in: ids } } });
    expect(purchases).toHaveLength(UPSTREAM_ORDERS);
    expect(purchases.every((p) => p.status === "delivered")).toBe(true);
    expect(new Set(purchases.map((p) => p.upstreamOrderId)).size).toBe(UPSTREAM_ORDERS);
    const bOrders = (await bPool.query<{ id: number; downstreamOrderNo: string }>(`SELECT "id", "downstreamOrderNo" FROM "Order"`)).rows;
    expect(bOrders).toHaveLength(UPSTREAM_ORDERS);
    expect(new Set(bOrders.map((o) => o.downstreamOrderNo))).toEqual(new Set(upstreamOrders.map((o) => o.orderNo)));
    const bKeys = (
      await bPool.query<{ orderId: number; ciphertext: Buffer }>(
        `SELECT "orderId", "ciphertext" FROM "CardKey" WHERE "status" = 'delivered'`,
      )
    ).rows;
    expect(bKeys).toHaveLength(UPSTREAM_ORDERS);
    expect(new Set(bKeys.map((k) => k.orderId)).size).toBe(UPSTREAM_ORDERS);

    // Our deliveries: each order one fulfillment; the upstream lines are exactly B's keys, none twice.
    const fulfillments = await db().fulfillment.findMany({ where: { orderId: { in: all } } });
    expect(fulfillments).toHaveLength(all.length);
    const upstreamLines = fulfillments.filter((f) => ids.includes(f.orderId)).flatMap((f) => openPayload(f.payloadCiphertext!));
    expect(upstreamLines.sort()).toEqual(bKeys.map((k) => decryptText(k.ciphertext)).sort());

    // Callbacks: one row per public change, each delivered; every order's callback reached the receiver.
    // A callback being sent at the kill may arrive twice (at least once); its content is the same.
    const callbacks = await db().callback.findMany({ where: { orderId: { in: all } } });
    expect(callbacks).toHaveLength(all.length);
    const received = receiver.received.map((r) => JSON.parse(r.body) as { order_id: number });
    expect(new Set(received.map((r) => r.order_id))).toEqual(new Set(all));
    expect(received.length - all.length).toBeLessThanOrEqual(4); // at most the attempts running at the kill (WORKER_CONCURRENCY)

    // Points: every buyer's balance equals its ledger, on both instances.
    const mismatches = `SELECT u."id" FROM "User" u LEFT JOIN "PointsLedger" l ON l."userId" = u."id"
                        GROUP BY u."id", u."balanceCents" HAVING u."balanceCents" <> COALESCE(sum(l."deltaCents"), 0)`;
    expect(await db().$queryRawUnsafe(mismatches)).toEqual([]);
    expect((await bPool.query(mismatches)).rows).toEqual([]);
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(
      1_000_000n - 100n * BigInt(UPSTREAM_ORDERS) - 300n * BigInt(MANUAL_ORDERS),
    );
    console.info(`crash test: killed with ${doneAtKill}/${UPSTREAM_ORDERS} purchases and ${callbacksAtKill}/${all.length} callbacks done`);
  }, 180_000);
});
