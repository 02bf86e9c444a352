import { beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, SYSTEM_ACTOR } from "../audit/actor";
import { openCallbackBody } from "../callbacks/callback-body";
import { db } from "../db/client";
import { AppError } from "../errors";
import { listJobs } from "../jobs/list-jobs";
import { createOrder } from "../orders/create-order";
import { openPayload } from "../order-read/order-view";
import { expectError } from "../testing/expect-error";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { balanceOf, ledgerSum } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { deliverOrder } from "./deliver-order";
import { failOrder } from "./fail-order";
import { transitionOrder } from "./transition-order";

// The order state machine (spec 3, D21, D22, D26): legal and illegal moves,
// refunds with ledger rows, stock release, callbacks queued with the change,
// and row locks that let exactly one of two concurrent transitions win.

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // callback URLs below point at documentation/loopback hosts; nothing is sent here
  await useTestDatabase();
});

let seq = 0;
const no = () => `SM-${Date.now()}-${++seq}`;

async function setup(
  opts: { stockQuantity?: number | null; profile?: "U" | "P"; callbackUrl?: string; fulfillmentType?: "manual" | "upstream" } = {},
) {
  const buyer = await makeBuyer({ pointsCents: 100_000n });
  const { sku } = await makeProduct({
    fulfillmentType: opts.fulfillmentType ?? "manual",
    priceCents: 1500n,
    stockQuantity: opts.stockQuantity === undefined ? 10 : opts.stockQuantity,
  });
  const credential = { id: buyer.id, userId: buyer.user.id };
  const order = async (quantity = 1) =>
    (
      await createOrder({
        credential,
        profile: opts.profile ?? "P",
        input: { downstreamOrderNo: no(), skuId: sku.id, quantity, ...(opts.callbackUrl ? { callbackUrl: opts.callbackUrl } : {}) },
      })
    ).order;
  return { buyer, sku, order };
}

describe("manual delivery and failure", () => {
  it("processing → delivered: payload lines become the encrypted fulfillment (D21), audited without the payload", async () => {
    const { buyer, order } = await setup();
    const o = await order();
    expect(o.status).toBe("processing");
    const before = await balanceOf(buyer.user.id);
    const result = await deliverOrder({ orderNo: o.orderNo, payloadText: "LINE-A-secret\r\n\n  LINE-B-secret  \n", actor: CLI_ACTOR });
    expect(result).toEqual({ orderId: o.id, orderNo: o.orderNo, status: "delivered", lines: 2, callbackQueued: false });
    const stored = await db().order.findUniqueOrThrow({ where: { id: o.id }, include: { fulfillment: true } });
    expect(stored.status).toBe("delivered");
    expect(stored.completedAt).not.toBeNull();
    expect(stored.fulfillment?.source).toBe("manual");
    expect(Buffer.from(stored.fulfillment!.payloadCiphertext!).toString("latin1")).not.toContain("LINE-A-secret");
    expect(openPayload(stored.fulfillment!.payloadCiphertext!)).toEqual(["LINE-A-secret", "LINE-B-secret"]);
    expect(await balanceOf(buyer.user.id)).toBe(before); // delivery moves no points
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: "order.deliver", targetId: o.orderNo } });
    expect(audit.actor).toBe("cli");
    expect(JSON.stringify(audit.details)).not.toContain("LINE-A");
  });

  it("processing → failed (D22): refund with a ledger row naming the order, stock back, error_message set", async () => {
    const { buyer, sku, order } = await setup({ stockQuantity: 10 });
    const o = await order(3);
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).stockQuantity).toBe(7);
    const before = await balanceOf(buyer.user.id);
    const result = await failOrder({ orderNo: o.orderNo, reason: "  supplier out of stock  ", actor: SYSTEM_ACTOR });
    expect(result).toMatchObject({ orderNo: o.orderNo, status: "failed", reason: "supplier out of stock" });
    expect(await balanceOf(buyer.user.id)).toBe(before + 4500n);
    const refund = await db().pointsLedger.findMany({ where: { orderId: o.id }, orderBy: { id: "asc" } });
    expect(refund.map((r) => r.deltaCents)).toEqual([-4500n, 4500n]);
    expect(refund[1].reason).toContain("refund");
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).stockQuantity).toBe(10);
    const stored = await db().order.findUniqueOrThrow({ where: { id: o.id } });
    expect(stored).toMatchObject({ status: "failed", errorMessage: "supplier out of stock" });
    expect(await ledgerSum(buyer.user.id)).toBe(await balanceOf(buyer.user.id));
    expect(await db().auditLog.count({ where: { action: "order.fail", targetId: o.orderNo } })).toBe(1);
  });

  it("D22: unlimited stock stays unlimited; card keys held by a failed order return to the pool", async () => {
    const { sku, order } = await setup({ stockQuantity: null });
    const o = await order(2);
    // A key attached to the order (as a reservation would be) must come back, order cleared.
    const { sku: keySku } = await makeProduct({ cardKeys: cardKeysFor("HELD", 1) });
    const key = await db().cardKey.findFirstOrThrow({ where: { skuId: keySku.id } });
    await db().cardKey.update({ where: { id: key.id }, data: { status: "delivered", orderId: o.id, deliveredAt: new Date() } });
    await failOrder({ orderNo: o.orderNo, reason: "cancelled by support", actor: SYSTEM_ACTOR });
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).stockQuantity).toBeNull();
    expect(await db().cardKey.findUniqueOrThrow({ where: { id: key.id } })).toMatchObject({
      status: "available",
      orderId: null,
      deliveredAt: null,
    });
  });

  it("processing → unknown_review (internal, no callback) → delivered or failed", async () => {
    const { order } = await setup({ profile: "U", callbackUrl: "http://93.184.216.34/cb" });
    const a = await order();
    const r1 = await db().$transaction((tx) => transitionOrder(tx, a.id, { to: "unknown_review" }));
    expect(r1).toMatchObject({ from: "processing", to: "unknown_review", callbackId: null });
    expect(await db().callback.count({ where: { orderId: a.id } })).toBe(0);
    await deliverOrder({ orderNo: a.orderNo, payloadText: "K1", actor: SYSTEM_ACTOR });
    expect(await db().callback.count({ where: { orderId: a.id } })).toBe(1);

    const b = await order();
    await db().$transaction((tx) => transitionOrder(tx, b.id, { to: "unknown_review" }));
    await failOrder({ orderNo: b.orderNo, reason: "upstream never answered", actor: SYSTEM_ACTOR });
    expect((await db().order.findUniqueOrThrow({ where: { id: b.id } })).status).toBe("failed");
  });

  it("refuses every move out of delivered or failed, and review → review, with a clear message; nothing changes", async () => {
    const { buyer, order } = await setup();
    const d = await order();
    await deliverOrder({ orderNo: d.orderNo, payloadText: "X", actor: SYSTEM_ACTOR });
    const f = await order();
    await failOrder({ orderNo: f.orderNo, reason: "no", actor: SYSTEM_ACTOR });
    const r = await order();
    await db().$transaction((tx) => transitionOrder(tx, r.id, { to: "unknown_review" }));
    const balanceBefore = await balanceOf(buyer.user.id);

    let e = await expectError(failOrder({ orderNo: d.orderNo, reason: "late", actor: SYSTEM_ACTOR }), "order_final", 409);
    expect(e.publicMessage).toContain(`order ${d.orderNo} is already delivered`);
    await expectError(deliverOrder({ orderNo: d.orderNo, payloadText: "Y", actor: SYSTEM_ACTOR }), "order_final", 409);
    e = await expectError(deliverOrder({ orderNo: f.orderNo, payloadText: "Y", actor: SYSTEM_ACTOR }), "order_final", 409);
    expect(e.publicMessage).toContain("already failed");
    await expectError(failOrder({ orderNo: f.orderNo, reason: "again", actor: SYSTEM_ACTOR }), "order_final", 409);
    await expectError(
      db().$transaction((tx) => transitionOrder(tx, d.id, { to: "unknown_review" })),
      "order_final",
      409,
    );
    await expectError(
      db().$transaction((tx) => transitionOrder(tx, r.id, { to: "unknown_review" })),
      "invalid_transition",
      409,
    );

    expect(await balanceOf(buyer.user.id)).toBe(balanceBefore); // no second refund
    expect(openPayload((await db().fulfillment.findUniqueOrThrow({ where: { orderId: d.id } })).payloadCiphertext!)).toEqual(["X"]);
    expect((await db().order.findUniqueOrThrow({ where: { id: f.id } })).errorMessage).toBe("no");
  });

  it("bad input gets a clear error and writes nothing", async () => {
    const { order } = await setup();
    const o = await order();
    await expectError(deliverOrder({ orderNo: o.orderNo, payloadText: " \n \r\n", actor: SYSTEM_ACTOR }), "bad_request", 400);
    await expectError(failOrder({ orderNo: o.orderNo, reason: "   ", actor: SYSTEM_ACTOR }), "bad_request", 400);
    await expectError(deliverOrder({ orderNo: "SK-NO-SUCH", payloadText: "A", actor: SYSTEM_ACTOR }), "order_not_found", 404);
    await expectError(failOrder({ orderNo: "SK-NO-SUCH", reason: "x", actor: SYSTEM_ACTOR }), "order_not_found", 404);
    expect((await db().order.findUniqueOrThrow({ where: { id: o.id } })).status).toBe("processing");
    expect(await db().fulfillment.count({ where: { orderId: o.id } })).toBe(0);
  });
});

describe("callbacks queued with the change (D26, D28)", () => {
  it("a U order with callback_url gets one sealed Callback and one job per public change, in the same transaction", async () => {
    const { order } = await setup({ profile: "U", callbackUrl: "http://93.184.216.34/hook?t=1" });
    const o = await order();
    const res = await deliverOrder({ orderNo: o.orderNo, payloadText: "CARD-1\nCARD-2", actor: SYSTEM_ACTOR });
    expect(res.callbackQueued).toBe(true);
    const [cb] = await db().callback.findMany({ where: { orderId: o.id } });
    expect(cb).toMatchObject({ url: "http://93.184.216.34/hook?t=1", status: "pending", attemptCount: 0 });
    expect(cb.body).not.toContain("CARD-1"); // card keys are not stored in the clear
    const body = JSON.parse(openCallbackBody(cb.body)) as { timestamp: unknown };
    expect(body).toMatchObject({
      event: "order.updated",
      ok: true,
      order_id: o.id,
      order_no: o.orderNo,
      downstream_order_no: o.downstreamOrderNo,
      status: "delivered",
      amount: "15.00",
      currency: "CNY",
      fulfillment: { type: "card_key", status: "delivered", payload: "CARD-1\nCARD-2", delivery_data: ["CARD-1", "CARD-2"] },
    });
    expect(Number.isInteger(body.timestamp)).toBe(true);
    const jobs = await listJobs({ state: "pending" });
    expect(jobs.filter((j) => j.key === `callback:${cb.id}`)).toHaveLength(1);

    const f = await order();
    await failOrder({ orderNo: f.orderNo, reason: "refused", actor: SYSTEM_ACTOR });
    const [fcb] = await db().callback.findMany({ where: { orderId: f.id } });
    const fbody = JSON.parse(openCallbackBody(fcb.body)) as { status: string; fulfillment?: unknown };
    expect(fbody.status).toBe("failed");
    expect(fbody.fulfillment).toBeUndefined();
  });

  it("no callback for P orders or U orders without callback_url; a failed transition leaves no callback or job", async () => {
    const p = await setup({ profile: "P" });
    const u = await setup({ profile: "U" });
    const po = await p.order();
    const uo = await u.order();
    await deliverOrder({ orderNo: po.orderNo, payloadText: "A", actor: SYSTEM_ACTOR });
    await failOrder({ orderNo: uo.orderNo, reason: "x", actor: SYSTEM_ACTOR });
    expect(await db().callback.count({ where: { orderId: { in: [po.id, uo.id] } } })).toBe(0);

    const c = await setup({ profile: "U", callbackUrl: "http://93.184.216.34/cb" });
    const co = await c.order();
    await failOrder({ orderNo: co.orderNo, reason: "x", actor: SYSTEM_ACTOR });
    const jobsBefore = (await listJobs()).length;
    await expectError(deliverOrder({ orderNo: co.orderNo, payloadText: "late", actor: SYSTEM_ACTOR }), "order_final", 409);
    expect(await db().callback.count({ where: { orderId: co.id } })).toBe(1);
    expect((await listJobs()).length).toBe(jobsBefore);
  });
});

describe("concurrency", () => {
  it("deliver vs fail on the same order at once: exactly one wins, points and ledger agree", async () => {
    const { buyer, sku, order } = await setup({ stockQuantity: 100, profile: "U", callbackUrl: "http://93.184.216.34/cb" });
    const orders = [];
    for (let i = 0; i < 8; i++) orders.push(await order());
    const outcomes = await Promise.all(
      orders.map(async (o) => {
        const [d, f] = await Promise.allSettled([
          deliverOrder({ orderNo: o.orderNo, payloadText: `KEY-${o.id}`, actor: SYSTEM_ACTOR }),
          failOrder({ orderNo: o.orderNo, reason: "race", actor: SYSTEM_ACTOR }),
        ]);
        return { o, d, f };
      }),
    );
    let failed = 0;
    for (const { o, d, f } of outcomes) {
      expect([d.status, f.status].sort()).toEqual(["fulfilled", "rejected"]);
      const loser = (d.status === "rejected" ? d : f) as PromiseRejectedResult;
      expect((loser.reason as AppError).code).toBe("order_final");
      const stored = await db().order.findUniqueOrThrow({ where: { id: o.id }, include: { fulfillment: true } });
      expect(stored.status).toBe(d.status === "fulfilled" ? "delivered" : "failed");
      expect(stored.fulfillment !== null).toBe(d.status === "fulfilled");
      expect(await db().callback.count({ where: { orderId: o.id } })).toBe(1);
      if (f.status === "fulfilled") failed++;
    }
    expect(await ledgerSum(buyer.user.id)).toBe(await balanceOf(buyer.user.id));
    expect(await balanceOf(buyer.user.id)).toBe(100_000n - 1500n * BigInt(8 - failed));
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).stockQuantity).toBe(100 - (8 - failed));
  });
});
