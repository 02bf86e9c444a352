import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOrderDetail } from "../admin-views/get-order-detail";
import { purchaseHops } from "../admin-views/purchase-hops";
import { CLI_ACTOR, SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { AppError } from "../errors";
import { startWorker, type WorkerHandle } from "../worker/start-worker";
import { createOrder } from "../orders/create-order";
import { getOrder } from "../orders/get-order";
import { reconcilePoints } from "../points/reconcile-points";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { expectError } from "../testing/expect-error";
import { makeBuyer, makeProduct } from "../testing/factories";
import { balanceOf, ledgerSum } from "../testing/points";
import { startStubOrderSupplier, type StubOrderSupplier } from "../testing/stub-order-supplier";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "../upstream/add-upstream-connection";
import { editSkuSources } from "../upstream/edit-sku-sources";
import { findSkuSources } from "../upstream/load-sku-sources";
import { listClaims } from "./list-claims";
import { openClaim } from "./open-claim";
import { resolveClaim } from "./resolve-claim";

// Issue 26.3 (decision 0059): a replace without a typed line, for a SKU whose
// only sources are upstreams, buys ONE unit from them with an order hop's
// guarantees. Two stub suppliers speaking our protocol on loopback and a real
// job worker on the test database run the purchases.

let url: string;
let worker: WorkerHandle | undefined;
let a: StubOrderSupplier;
let b: StubOrderSupplier;
let receiver: CallbackReceiver;
const conn: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  Object.assign(process.env, { UPSTREAM_HTTP_TIMEOUT_MS: "1000", UPSTREAM_POLL_SCHEDULE: "0.2", CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" });
  url = await useTestDatabase();
  [a, b, receiver] = await Promise.all([startStubOrderSupplier("A"), startStubOrderSupplier("B"), startCallbackReceiver()]);
  for (const s of [a, b]) {
    const c = await addUpstreamConnection(
      {
        name: s.name,
        baseUrl: s.origin,
        profile: "P",
        apiKey: `k-${s.name}`,
        apiSecret: "s",
        maxWaitSeconds: 60,
      },
      { actor: SYSTEM_ACTOR },
    );
    conn[s.name] = c.id;
  }
  worker = await startWorker({ connectionString: url, concurrency: 3, pollIntervalMs: 100, sweepIntervalMs: 2000 });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await Promise.all([a?.close(), b?.close(), receiver?.close()]);
});

/** A Profile U order of one unit of a SKU whose sources are A then B only, delivered by A; and an open claim of its line. */
async function claimedUpstreamOrder() {
  a.decide = () => "deliver";
  b.decide = () => "deliver";
  const { sku } = await makeProduct({ priceCents: 1000n });
  for (const s of [a, b]) {
    const change = { op: "add-upstream" as const, connectionId: conn[s.name], upstreamSkuId: 7, maxCostCents: null };
    await editSkuSources({ skuCode: sku.skuCode, change, actor: SYSTEM_ACTOR });
  }
  await editSkuSources({ skuCode: sku.skuCode, change: { op: "remove", position: 1 }, actor: SYSTEM_ACTOR });
  expect((await findSkuSources(sku.skuCode)).sources.map((s) => s.connectionName)).toEqual(["A", "B"]);
  const buyer = await makeBuyer({ pointsCents: 10_000n });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: "U",
    input: { downstreamOrderNo: `RU-${Date.now()}-${++seq}`, skuId: sku.id, quantity: 1, callbackUrl: `${receiver.origin}/cb/${seq}` },
  });
  await waitFor(async () => (await db().order.findUniqueOrThrow({ where: { id: order.id } })).status === "delivered", 30_000, 100);
  const delivered = await getOrder({ credentialId: buyer.id, orderId: order.id });
  const oldLine = delivered.fulfillment!.lines[0];
  expect(oldLine).toMatch(/^A-KEY-/);
  const { claim } = await openClaim({ credentialId: buyer.id, orderId: order.id, requestId: `R-${seq}`, line: 0, reason: "dead key" });
  return { buyer, order, claim, oldLine };
}

const claimState = async (id: number) => (await db().afterSalesClaim.findUniqueOrThrow({ where: { id } })).state;
const noteOf = async (id: number) => (await listClaims()).find((c) => c.id === id)?.replacementNote ?? null;

describe("issue 26.3: replace buys a replacement from the SKU's upstream sources", () => {
  it("issue 26.3: replace buys a new key from the SKU's upstream source when ours has none: one create with a stable number, the new line delivered, ledger unchanged, one callback", async () => {
    const { buyer, order, claim, oldLine } = await claimedUpstreamOrder();
    const balance = await balanceOf(buyer.user.id);
    const ledgerRows = await db().pointsLedger.count({ where: { orderId: order.id } });
    const callbacks = await db().callback.count({ where: { orderId: order.id } });
    const createsA = a.createsReceived;

    const started = await resolveClaim({ claimId: claim.id, action: "replace", actor: CLI_ACTOR });
    expect(started.state).toBe("open");
    expect(started.replacementNote).toMatch(/buying a replacement/);
    await waitFor(async () => (await claimState(claim.id)) === "replaced", 30_000, 100);

    const number = `${order.orderNo}-r${claim.id}-1`;
    expect(a.createsReceived - createsA).toBe(1);
    expect(a.orders.get(number)?.creates).toBe(1);
    expect([...b.orders.keys()].some((k) => k.includes(`-r${claim.id}-`))).toBe(false);
    const newLine = a.orders.get(number)!.line!;
    const after = await getOrder({ credentialId: buyer.id, orderId: order.id });
    expect(after.fulfillment!.lines).toEqual([newLine]);
    const [view] = (await listClaims({ state: "replaced" })).filter((c) => c.id === claim.id);
    expect(view.claimedLine()).toBe(oldLine); // the old line stays in the claim, marked defective
    expect(view.replacementNote).toMatch(/replacement bought/);
    expect(view.resolvedBy).toBe("system");
    // No money moves for a replace; the replacement's cost is on its purchase row.
    expect(await balanceOf(buyer.user.id)).toBe(balance);
    expect(await db().pointsLedger.count({ where: { orderId: order.id } })).toBe(ledgerRows);
    const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { claimId: claim.id } });
    expect(purchase).toMatchObject({ orderId: null, status: "delivered", downstreamOrderNo: number, costCents: 500n });
    await waitFor(async () => (await db().callback.count({ where: { orderId: order.id } })) === callbacks + 1, 10_000, 100);
    // The order page: the replacement's hop follows the order's, and its cost comes off the margin (10.00 - 5.00 - 5.00).
    const detail = (await getOrderDetail(order.orderNo))!;
    const shown = purchaseHops(
      detail.upstreamPurchase,
      detail.amountCents,
      detail.claims.map((c) => c.replacementPurchase!),
    );
    expect(shown.hops.map((h) => h.number)).toEqual([order.orderNo, number]);
    expect(shown.marginCents).toBe(0n);
    const audits = await db().auditLog.findMany({ where: { targetId: order.orderNo, action: { startsWith: "claim." } } });
    expect(audits.map((r) => r.action).sort()).toEqual(["claim.open", "claim.replace", "claim.replace_purchase"]);
    expect(await ledgerSum(buyer.user.id)).toBe(await balanceOf(buyer.user.id));
    expect((await reconcilePoints()).ok).toBe(true);
  });

  it("issue 26.3: the first source refuses definitively, the second supplies; when every source refuses the claim stays open with a note, and a typed line still resolves it", async () => {
    const first = await claimedUpstreamOrder();
    a.decide = (no) => (no.includes("-r") ? "refuse-stock" : "deliver");
    await resolveClaim({ claimId: first.claim.id, action: "replace", actor: CLI_ACTOR });
    await waitFor(async () => (await claimState(first.claim.id)) === "replaced", 30_000, 100);
    const hop2 = `${first.order.orderNo}-r${first.claim.id}-2`;
    expect(a.orders.has(`${first.order.orderNo}-r${first.claim.id}-1`)).toBe(false); // refused: nothing stored there
    expect(b.orders.get(hop2)?.creates).toBe(1);
    const after = await getOrder({ credentialId: first.buyer.id, orderId: first.order.id });
    expect(after.fulfillment!.lines).toEqual([b.orders.get(hop2)!.line]);

    const second = await claimedUpstreamOrder();
    a.decide = (no) => (no.includes("-r") ? "refuse-stock" : "deliver");
    b.decide = () => "refuse-stock";
    await resolveClaim({ claimId: second.claim.id, action: "replace", actor: CLI_ACTOR });
    await waitFor(
      async () => (await db().upstreamPurchase.findUnique({ where: { claimId: second.claim.id } }))?.status === "failed",
      30_000,
      100,
    );
    expect(await claimState(second.claim.id)).toBe("open");
    expect(await noteOf(second.claim.id)).toMatch(/every upstream source refused.*type the line, refund or reject/);
    // No second purchase for the same claim: a replace needs a typed line now.
    const err = await expectError(resolveClaim({ claimId: second.claim.id, action: "replace", actor: CLI_ACTOR }), "claim_replacing", 409);
    expect(err.publicMessage).toMatch(/every upstream source refused/);
    const typed = await resolveClaim({ claimId: second.claim.id, action: "replace", replacement: "TYPED-KEY", actor: CLI_ACTOR });
    expect(typed.state).toBe("replaced");
    expect((await getOrder({ credentialId: second.buyer.id, orderId: second.order.id })).fulfillment!.lines).toEqual(["TYPED-KEY"]);
    expect((await reconcilePoints()).ok).toBe(true);
  });

  it("issue 26.3: six concurrent replace calls start one purchase and resolve the claim once; nothing else resolves it meanwhile", async () => {
    const { order, claim } = await claimedUpstreamOrder();
    const createsA = a.createsReceived;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => resolveClaim({ claimId: claim.id, action: "replace", actor: CLI_ACTOR })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect(["claim_replacing", "claim_resolved"]).toContain((r.reason as AppError).code);
    // While the purchase runs, a refund (or typed line) is refused rather than racing it.
    const refund = await resolveClaim({ claimId: claim.id, action: "refund", actor: CLI_ACTOR }).catch((e: AppError) => e.code);
    expect(["claim_replacing", "claim_resolved"]).toContain(refund);
    await waitFor(async () => (await claimState(claim.id)) === "replaced", 30_000, 100);
    expect(a.createsReceived - createsA).toBe(1);
    expect(await db().upstreamPurchase.count({ where: { claimId: claim.id } })).toBe(1);
    expect(await db().auditLog.count({ where: { targetId: order.orderNo, action: "claim.replace" } })).toBe(1);
    expect(await db().pointsLedger.count({ where: { orderId: order.id, deltaCents: { gt: 0 } } })).toBe(0);
  });

  it("issue 26.3: an unknown outcome is resolved by repeating the create with the same number; one still unknown at the deadline leaves the claim open with a note, and no other source is tried", async () => {
    const lost = await claimedUpstreamOrder();
    a.loseFirstAnswer = true;
    try {
      await resolveClaim({ claimId: lost.claim.id, action: "replace", actor: CLI_ACTOR });
      await waitFor(async () => (await claimState(lost.claim.id)) === "replaced", 30_000, 100);
    } finally {
      a.loseFirstAnswer = false;
    }
    expect(a.orders.get(`${lost.order.orderNo}-r${lost.claim.id}-1`)?.creates).toBe(2); // stored once, asked twice

    const dark = await claimedUpstreamOrder();
    await db().upstreamConnection.update({ where: { id: conn.A }, data: { maxWaitSeconds: 2 } });
    a.down = true;
    try {
      await resolveClaim({ claimId: dark.claim.id, action: "replace", actor: CLI_ACTOR });
      await waitFor(
        async () => (await db().upstreamPurchase.findUnique({ where: { claimId: dark.claim.id } }))?.status === "unknown",
        30_000,
        100,
      );
    } finally {
      a.down = false;
      await db().upstreamConnection.update({ where: { id: conn.A }, data: { maxWaitSeconds: 60 } });
    }
    expect(await claimState(dark.claim.id)).toBe("open");
    expect(await noteOf(dark.claim.id)).toMatch(/outcome unknown/);
    expect([...b.orders.keys()].some((k) => k.includes(`-r${dark.claim.id}-`))).toBe(false);
    expect((await db().order.findUniqueOrThrow({ where: { id: dark.order.id } })).status).toBe("delivered");
    await expectError(resolveClaim({ claimId: dark.claim.id, action: "replace", actor: CLI_ACTOR }), "claim_replacing", 409);
    expect((await resolveClaim({ claimId: dark.claim.id, action: "refund", actor: CLI_ACTOR })).state).toBe("refunded");
    expect((await reconcilePoints()).ok).toBe(true);
  });
});
