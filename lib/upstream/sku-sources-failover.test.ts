import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { startWorker, type WorkerHandle } from "../worker/start-worker";
import { createOrder } from "../orders/create-order";
import { reconcilePoints } from "../points/reconcile-points";
import { waitFor } from "../testing/callback-receiver";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "../testing/factories";
import { startStubOrderSupplier, type StubOrderSupplier } from "../testing/stub-order-supplier";
import { useTestDatabase } from "../testing/test-database";
import { openPayload } from "../order-read/order-view";
import { addUpstreamConnection } from "./add-upstream-connection";
import { hopOrderNo } from "./choose-source";
import { editSkuSources } from "./edit-sku-sources";

// Issue 26, "Done when": one SKU with our own keys (5) and three upstreams
// speaking our protocol on loopback: OOS refuses every order for stock, SLOW
// stores each order but loses the answer to its first create (the repeat
// answers; it delivers its first 30 and fails the rest), GOOD delivers 150
// then refuses for stock. 200 concurrent orders; a real job worker in this
// process (graphile-worker on the test database) runs the purchases.

const ORDERS = 200;
const OWN_KEYS = 5;
const CALLERS = 50;
let url: string;
let worker: WorkerHandle | undefined;
let oos: StubOrderSupplier;
let slow: StubOrderSupplier;
let good: StubOrderSupplier;
const conn: Record<string, number> = {};

beforeAll(async () => {
  Object.assign(process.env, {
    UPSTREAM_HTTP_TIMEOUT_MS: "500",
    UPSTREAM_POLL_SCHEDULE: "0.2",
    UPSTREAM_BREAKER_FAILURES: "5",
    UPSTREAM_BREAKER_OPEN_SECONDS: "2",
    DB_POOL_SIZE: "40",
  });
  url = await useTestDatabase();
  [oos, slow, good] = await Promise.all([startStubOrderSupplier("OOS"), startStubOrderSupplier("SLOW"), startStubOrderSupplier("GOOD")]);
  oos.decide = () => "refuse-stock";
  let slowCount = 0;
  slow.loseFirstAnswer = true;
  slow.decide = () => (++slowCount <= 30 ? "deliver" : "fail");
  let goodCount = 0;
  good.decide = () => (++goodCount <= 150 ? "deliver" : "refuse-stock");
  for (const s of [oos, slow, good]) {
    conn[s.name] = (
      await addUpstreamConnection(
        {
          name: s.name,
          baseUrl: s.origin,
          profile: "P",
          apiKey: `k-${s.name}`,
          apiSecret: "s",
          maxWaitSeconds: 60,
        },
        { actor: SYSTEM_ACTOR },
      )
    ).id;
  }
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await Promise.all([oos?.close(), slow?.close(), good?.close()]);
});

describe("issue 26: several sources per SKU with failover", () => {
  it("Done when: 200 concurrent orders over keys + three upstreams (out of stock, lost answers, working): each delivered once or refunded once, no hop bought twice, the breaker opens for the failing one, the ledger reconciles", async () => {
    const { sku } = await makeProduct({ categoryId: (await makeCategory()).id, priceCents: 1000n, cardKeys: cardKeysFor("OWN", OWN_KEYS) });
    for (const s of [oos, slow, good]) {
      await editSkuSources({
        skuCode: sku.skuCode,
        change: { op: "add-upstream", connectionId: conn[s.name], upstreamSkuId: 10, maxCostCents: null },
        actor: SYSTEM_ACTOR,
      });
    }
    // One buyer per order: the test is about sources, not about one balance row's queue.
    const buyers: Awaited<ReturnType<typeof makeBuyer>>[] = [];
    for (let i = 0; i < ORDERS; i++) buyers.push(await makeBuyer({ pointsCents: 10_000n }));
    const t0 = Date.now();

    // Issue 26 "Done when": 200 orders from 50 concurrent callers, then the worker buys them all
    // (6 jobs at once). An upstream order's transaction holds a pooled connection only for its
    // writes (queue-purchase.ts startUpstreamPurchase): with the source list read inside it, 50
    // callers on the shared 2-core machine made Prisma give up starting a transaction after 2 s.
    let next = 0;
    const created: Awaited<ReturnType<typeof createOrder>>[] = [];
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        for (let i = next++; i < ORDERS; i = next++) {
          const b = buyers[i];
          created.push(
            await createOrder({
              credential: { id: b.id, userId: b.user.id },
              profile: "P",
              input: { downstreamOrderNo: `FO-${i}`, skuId: sku.id, quantity: 1 },
            }),
          );
        }
      }),
    );

    const createdSeconds = (Date.now() - t0) / 1000;
    worker = await startWorker({ connectionString: url, concurrency: 6, pollIntervalMs: 100, sweepIntervalMs: 2000 });
    const ids = created.map((c) => c.order.id);
    await waitFor(async () => (await db().order.count({ where: { id: { in: ids }, status: "processing" } })) === 0, 180_000, 100);
    const seconds = (Date.now() - t0) / 1000;

    const orders = await db().order.findMany({
      where: { id: { in: ids } },
      include: { fulfillment: true, upstreamPurchase: { include: { hops: { orderBy: { hop: "asc" } } } }, ledger: true },
    });
    const stubs = [oos, slow, good];
    const bought = (no: string) => stubs.flatMap((s) => (s.orders.get(no)?.status === "delivered" ? [s.orders.get(no)!] : []));
    let fromKeys = 0;
    let fromUpstream = 0;
    let refunded = 0;
    for (const o of orders) {
      expect(o.status, `order ${o.orderNo}`).not.toBe("unknown_review"); // every lost answer was resolved by repeating the create
      const p = o.upstreamPurchase;
      const hops = p ? [...p.hops.map((h) => ({ hop: h.hop, no: h.downstreamOrderNo })), { hop: p.hop, no: p.downstreamOrderNo }] : [];
      // Hop numbering: 1 = our order number, n = "<order_no>-n", one per hop.
      expect(hops).toEqual(hops.map((_, i) => ({ hop: i + 1, no: hopOrderNo(o.orderNo, i + 1) })));
      // Never two sources bought for one order.
      const purchases = hops.flatMap((h) => bought(h.no));
      expect(purchases.length, `order ${o.orderNo}`).toBeLessThanOrEqual(1);
      const debits = o.ledger.filter((l) => l.deltaCents < 0n);
      const credits = o.ledger.filter((l) => l.deltaCents > 0n);
      expect(debits.map((l) => l.deltaCents)).toEqual([-1000n]);
      if (o.status === "delivered") {
        expect(credits).toEqual([]);
        if (o.fulfillment!.source === "auto") {
          fromKeys++;
          expect(p).toBeNull();
        } else {
          fromUpstream++;
          expect(purchases).toHaveLength(1);
          expect(openPayload(o.fulfillment!.payloadCiphertext!)).toEqual([purchases[0].line]);
          expect(p!.status).toBe("delivered");
        }
      } else {
        expect(o.status).toBe("failed");
        expect(credits.map((l) => l.deltaCents)).toEqual([1000n]); // refunded exactly once
        expect(purchases).toEqual([]);
        refunded++;
      }
      // A hop left behind was refused, failed for certain, or never sent: none holds a purchase.
      for (const h of p?.hops ?? []) {
        expect(h.status).toBe("failed");
        expect(bought(h.downstreamOrderNo)).toEqual([]);
      }
    }
    expect(fromKeys).toBe(OWN_KEYS);
    expect(fromKeys + fromUpstream + refunded).toBe(ORDERS);
    expect(fromUpstream).toBe(stubs.reduce((n, s) => n + [...s.orders.values()].filter((o) => o.status === "delivered").length, 0));
    expect(fromUpstream).toBeGreaterThan(150); // GOOD's 150 and some of SLOW's
    // Lost answers were found again by repeating the create with the same number.
    expect([...slow.orders.values()].every((o) => o.creates >= 2)).toBe(true);
    // The breaker: OOS was asked far fewer than the 195 times its hops were queued; the rest skipped it unsent.
    expect(oos.createsReceived).toBeLessThan(60);
    expect(
      orders.flatMap((o) => o.upstreamPurchase?.hops ?? []).filter((h) => h.connectionId === conn.OOS && h.sentAt === null).length,
    ).toBeGreaterThan(100);
    expect(await reconcilePoints()).toMatchObject({ ok: true });

    // Figures for the closing note.
    const failedOver = orders.filter((o) => o.status === "delivered" && (o.upstreamPurchase?.hops.length ?? 0) > 0);
    const ms = failedOver.map((o) => o.completedAt!.getTime() - o.upstreamPurchase!.hops[0].finishedAt.getTime()).sort((a, b) => a - b);
    const pct = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
    console.log(
      JSON.stringify({
        issue26_failover: {
          orders: ORDERS,
          seconds,
          created_in_seconds: createdSeconds,
          orders_per_second: Number((ORDERS / seconds).toFixed(1)),
          bought_per_second: Number((ORDERS / (seconds - createdSeconds)).toFixed(1)),
          from_keys: fromKeys,
          from_upstream: fromUpstream,
          refunded,
          creates_received: Object.fromEntries(stubs.map((s) => [s.name, s.createsReceived])),
          first_refusal_to_delivery_ms: { median: pct(0.5), p95: pct(0.95), max: ms.at(-1) },
        },
      }),
    );
  }, 300_000);
});
