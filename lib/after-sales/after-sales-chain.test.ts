import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { reconcilePoints } from "../points/reconcile-points";
import { supplierClient } from "../protocol/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "../testing/factories";
import { balanceOf } from "../testing/points";
import { cloneTestDatabase, onDatabase, useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "../upstream/add-upstream-connection";
import { importUpstreamCatalog } from "../upstream/import-upstream-catalog";
import { resolveClaim } from "./resolve-claim";
import { anyString } from "@/lib/testing/matchers";

// Issue 26.3 over real HTTP: the after-sales endpoints in both profiles on
// one instance, and "up the chain" with two instances of the app, each with
// its own database, as the fulfillment tests do: a downstream claims at A, A
// claims at B (a durable job), B's administrator resolves, A's claim follows,
// and both sites reconcile.

let A: AppServer;
let B: AppServer;
let receiver: CallbackReceiver;
let bUrl: string;
let bPool: pg.Pool;
let seed: Awaited<ReturnType<typeof seedB>>;
let connP: number;

async function seedB() {
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  const account = await makeBuyer({ pointsCents: 100_000n }); // A's account at B: 1000.00
  const categoryId = (await makeCategory()).id;
  return { account, keys: await makeProduct({ categoryId, priceCents: 1000n, cardKeys: cardKeysFor("B", 12) }) };
}

/** The answers these tests read (declared, as the protocol documents them). */
interface OrderAnswer {
  order_id: number;
  refunded_amount?: string;
  fulfillment?: { delivery_data: string[] };
}
interface ClaimAnswer {
  claim_id: number;
}
interface ClaimListAnswer {
  claims: { claimed_data: string }[];
}
const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;

const bQuery = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await bPool.query(sql, params)).rows as T[];

beforeAll(async () => {
  const aUrl = await useTestDatabase();
  bUrl = await cloneTestDatabase();
  bPool = new pg.Pool({ connectionString: bUrl, max: 2 });
  seed = await onDatabase(bUrl, seedB);
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  receiver = await startCallbackReceiver();
  const fast = {
    WORKER_IN_SERVER: "true",
    WORKER_POLL_INTERVAL_MS: "100",
    UPSTREAM_POLL_SCHEDULE: "0.2,0.3",
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    CALLBACK_RETRY_SCHEDULE: "0.2,0.2",
  };
  [A, B] = await Promise.all([startAppServer(aUrl, fast), startAppServer(bUrl, fast)]);
  connP = (
    await addUpstreamConnection(
      {
        name: "B",
        baseUrl: B.baseUrl,
        profile: "P",
        apiKey: seed.account.apiKey,
        apiSecret: seed.account.apiSecret,
        maxWaitSeconds: 60,
      },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
  await importUpstreamCatalog({ connectionId: connP, markupPercent: "10", actor: SYSTEM_ACTOR });
}, 240_000);

afterAll(async () => {
  await Promise.all([A?.stop(), B?.stop()]);
  await receiver?.close();
  await bPool?.end();
});

let seq = 0;
const uniq = (p: string) => `${p}-${Date.now()}-${++seq}`;

describe("issue 26.3: the after-sales endpoints (extension, both profiles)", () => {
  it("issue 26.3: POST claims a line once per request_id, a second claim of the line is a D1 409, GET lists it; a refund shows refunded_amount and a Profile U order.updated callback", async () => {
    const keys = cardKeysFor("A", 3);
    const { sku } = await makeProduct({ priceCents: 500n, cardKeys: keys });
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const u = supplierClient(A.baseUrl, "/api/v1/upstream", buyer);
    const p = supplierClient(A.baseUrl, "/v1/provider", buyer);
    const created = await json<OrderAnswer>(
      u.post("/orders", { downstream_order_no: uniq("U"), sku_id: sku.id, quantity: 2, callback_url: `${receiver.origin}/cb` }),
    );
    expect(created).toMatchObject({ status: "delivered" });
    expect(created.refunded_amount).toBeUndefined(); // nothing refunded: the order reads as before

    const body = { request_id: uniq("R"), line: 1, reason: "does not activate" };
    const first = await u.post(`/orders/${created.order_id}/after-sales`, body);
    expect(first.status).toBe(200);
    const claim = await json<ClaimAnswer>(first);
    expect(claim).toMatchObject({ ok: true, order_id: created.order_id, line: 1, state: "open", claimed_data: keys[1], resolution: null });
    // Idempotent per key on request_id, across profiles (the key is the same).
    expect(await json(p.post(`/orders/${created.order_id}/after-sales`, body))).toMatchObject({ claim_id: claim.claim_id });
    const twice = await p.post(`/orders/${created.order_id}/after-sales`, { ...body, request_id: uniq("R") });
    expect(twice.status).toBe(409);
    expect(await json(twice)).toEqual({ ok: false, error_code: "line_already_claimed", error_message: anyString() }); // D1
    const outside = await u.post(`/orders/${created.order_id}/after-sales`, { request_id: uniq("R"), line: 2, reason: "x" });
    expect(outside.status).toBe(400);
    // D17 in P: unknown fields refused; D20: another key's order is 404.
    expect((await p.post(`/orders/${created.order_id}/after-sales`, { ...body, extra: 1 })).status).toBe(400);
    const stranger = supplierClient(A.baseUrl, "/api/v1/provider", await makeBuyer());
    expect(await json(stranger.get(`/orders/${created.order_id}/after-sales`))).toMatchObject({ error_code: "order_not_found" });

    await resolveClaim({ claimId: claim.claim_id, action: "refund", actor: CLI_ACTOR });
    const list = await json(p.get(`/orders/${created.order_id}/after-sales`));
    expect(list).toMatchObject({
      ok: true,
      refunded_amount: "5.00",
      claims: [{ claim_id: claim.claim_id, state: "refunded", resolution: { action: "refund", refund_amount: "5.00" } }],
    });
    expect(await json(p.get(`/orders/${created.order_id}`))).toMatchObject({ amount: "10.00", refunded_amount: "5.00" });
    const cb = await waitFor(
      () =>
        receiver.received
          .map((r) => JSON.parse(r.body) as Partial<OrderAnswer>)
          .find((b) => b.order_id === created.order_id && b.refunded_amount === "5.00"),
      15_000,
    );
    expect(cb).toMatchObject({ event: "order.updated", status: "delivered" });
    expect(await balanceOf(buyer.user.id)).toBe(10_000n - 1000n + 500n);
  }, 60_000);
});

describe("issue 26.3: up the chain (A buys from B; both speak after-sales)", () => {
  /** A downstream buys A's SKU mapped from B's and claims line 0 at A over HTTP. */
  async function claimAtA() {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const sku = await db().sku.findFirstOrThrow({ where: { upstreamSkuId: seed.keys.sku.id, product: { upstreamConnectionId: connP } } });
    const client = supplierClient(A.baseUrl, "/api/v1/provider", buyer);
    const created = await json<OrderAnswer>(client.post("/orders", { downstream_order_no: uniq("CH"), sku_id: sku.id, quantity: 1 }));
    await waitFor(async () => (await db().order.findUniqueOrThrow({ where: { id: created.order_id } })).status === "delivered", 30_000);
    const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: created.order_id } });
    const claim = await json<ClaimAnswer>(
      client.post(`/orders/${created.order_id}/after-sales`, { request_id: uniq("CR"), line: 0, reason: "key rejected by the game" }),
    );
    expect(claim).toMatchObject({ state: "open" });
    // A claims at B by itself (a job), with the same line of B's order.
    const [theirs] = await waitFor(
      () =>
        bQuery<{ id: number; state: string; line: number }>(
          `SELECT "id", "state"::text AS state, "line" FROM "AfterSalesClaim" WHERE "orderId" = $1`,
          [purchase.upstreamOrderId],
        ).then((r) => (r.length ? r : null)),
      20_000,
    );
    expect(theirs).toMatchObject({ state: "open", line: 0 });
    await waitFor(
      async () => (await db().afterSalesClaim.findUniqueOrThrow({ where: { id: claim.claim_id } })).upstreamState === "open",
      10_000,
    );
    return { buyer, client, created, claim, theirs, purchase };
  }

  const accountAtB = async () =>
    (await bQuery<{ b: string }>(`SELECT "balanceCents"::text AS b FROM "User" WHERE "id" = $1`, [seed.account.user.id]))[0].b;

  it("issue 26.3: a downstream claims at A, A claims at B, B's administrator refunds, A's buyer is refunded, and both sites reconcile", async () => {
    const { buyer, client, created, claim, purchase } = await claimAtA();
    const bBefore = BigInt(await accountAtB());
    const [bClaim] = await bQuery<{ id: number }>(`SELECT "id" FROM "AfterSalesClaim" WHERE "orderId" = $1`, [purchase.upstreamOrderId]);
    await onDatabase(bUrl, () => resolveClaim({ claimId: bClaim.id, action: "refund", actor: CLI_ACTOR })); // B's administrator

    await waitFor(
      async () => (await db().afterSalesClaim.findUniqueOrThrow({ where: { id: claim.claim_id } })).state === "refunded",
      20_000,
    );
    const ours = await db().afterSalesClaim.findUniqueOrThrow({ where: { id: claim.claim_id } });
    expect(ours).toMatchObject({ upstreamState: "refunded", refundCents: 1100n, resolvedBy: "system" });
    expect(await balanceOf(buyer.user.id)).toBe(10_000n); // 11.00 paid, 11.00 back
    expect(BigInt(await accountAtB())).toBe(bBefore + 1000n); // B gave A its 10.00 back
    expect(await json(client.get(`/orders/${created.order_id}/after-sales`))).toMatchObject({
      refunded_amount: "11.00",
      claims: [{ state: "refunded" }],
    });
    expect((await reconcilePoints()).ok).toBe(true);
    expect((await onDatabase(bUrl, reconcilePoints)).ok).toBe(true);
  }, 90_000);

  it("issue 26.3: B's administrator replaces the key: A's delivery_data shows B's new line at the same index, the old one stays in A's claim", async () => {
    const { client, created, claim, purchase } = await claimAtA();
    const before = (await json<OrderAnswer>(client.get(`/orders/${created.order_id}`))).fulfillment!.delivery_data;
    const [bClaim] = await bQuery<{ id: number }>(`SELECT "id" FROM "AfterSalesClaim" WHERE "orderId" = $1`, [purchase.upstreamOrderId]);
    await onDatabase(bUrl, () => resolveClaim({ claimId: bClaim.id, action: "replace", actor: CLI_ACTOR }));
    await waitFor(
      async () => (await db().afterSalesClaim.findUniqueOrThrow({ where: { id: claim.claim_id } })).state === "replaced",
      20_000,
    );
    // Profile P refuses a signed GET repeated within its second (D8): read again in the next one.
    const after = (await waitFor(async () => (await json<OrderAnswer>(client.get(`/orders/${created.order_id}`))).fulfillment, 5_000, 250))
      .delivery_data;
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
    expect(after[0]).toMatch(/^B-/);
    const list = await json<ClaimListAnswer>(client.get(`/orders/${created.order_id}/after-sales`));
    expect(list.claims[0]).toMatchObject({ state: "replaced", claimed_data: before[0] });
    expect((await reconcilePoints()).ok).toBe(true);
  }, 90_000);

  it("issue 26.4: A's administrator decides first; B's later refund is recorded on A's claim but moves no money on A twice", async () => {
    const { buyer, created, claim, purchase } = await claimAtA();
    await resolveClaim({ claimId: claim.claim_id, action: "reject", note: "used key", actor: CLI_ACTOR });
    const [bClaim] = await bQuery<{ id: number }>(`SELECT "id" FROM "AfterSalesClaim" WHERE "orderId" = $1`, [purchase.upstreamOrderId]);
    await onDatabase(bUrl, () => resolveClaim({ claimId: bClaim.id, action: "refund", actor: CLI_ACTOR }));
    await waitFor(
      async () => (await db().afterSalesClaim.findUniqueOrThrow({ where: { id: claim.claim_id } })).upstreamState === "refunded",
      20_000,
    );
    expect(await db().afterSalesClaim.findUniqueOrThrow({ where: { id: claim.claim_id } })).toMatchObject({ state: "rejected" });
    expect(await db().pointsLedger.count({ where: { orderId: created.order_id, deltaCents: { gt: 0n } } })).toBe(0);
    expect(await balanceOf(buyer.user.id)).toBe(10_000n - 1100n);
    expect((await reconcilePoints()).ok).toBe(true);
    expect((await onDatabase(bUrl, reconcilePoints)).ok).toBe(true);
  }, 90_000);
});
