import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli";
import { db } from "../db/client";
import { SYSTEM_ACTOR } from "../audit/actor";
import { createOrder } from "../orders/create-order";
import { makeBuyer } from "../testing/factories";
import { startStubSupplier, upstreamProduct, type StubSupplier } from "../testing/stub-supplier";
import { useTestDatabase } from "../testing/test-database";
import { acceptHeldProduct } from "./accept-held-product";
import { addUpstreamConnection } from "./add-upstream-connection";
import { importUpstreamCatalog } from "./import-upstream-catalog";
import { recheckUpstreamPurchase } from "./recheck-upstream-purchase";
import { runPurchaseJob } from "./run-purchase";
import { setUpstreamMaxCost } from "./set-upstream-max-cost";
import { anyNumber } from "@/lib/testing/matchers";

// Issue 22.1: an upstream's delivery and prices are checked before we accept
// them. A stub supplier on loopback answers each create with what the test
// wants (short deliveries, blank lines, a cost of 999.00) and serves
// catalogues with prices of 0.00 or halved; our side runs the real purchase
// job and the real import against this file's own database.

let url: string;
let sup: StubSupplier;
let connectionId: number;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

/** What the stub answers to the next create: a delivered order with these lines and this amount. */
let delivery: { lines: string[]; amount: string } = { lines: [], amount: "0.00" };

beforeAll(async () => {
  url = await useTestDatabase();
  sup = await startStubSupplier();
  connectionId = (
    await addUpstreamConnection(
      { name: "stub", baseUrl: sup.stub.origin, profile: "P", apiKey: "k", apiSecret: "s", maxWaitSeconds: 600 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
  sup.items = [
    upstreamProduct(1),
    upstreamProduct(2, { delivery_format: "account_password" }),
    upstreamProduct(7, { fulfillment_type: "manual" }), // its operator types the delivery (decision 0052)
  ];
  await importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR });
}, 60_000);
afterAll(async () => {
  await sup?.stub.close();
});
beforeEach(() => {
  // Creates answer delivered at once; a later read of the order (a re-check) answers the same.
  const orders = new Map<number, string>();
  sup.route = (req) => {
    const answer = (id: number) => ({
      body: {
        ok: true,
        order_id: id,
        order_no: `UP${id}`,
        downstream_order_no: orders.get(id),
        status: "delivered",
        amount: delivery.amount,
        fulfillment: { delivery_data: delivery.lines },
      },
    });
    const read = /^\/orders\/(\d+)/.exec(req.path);
    if (req.method === "GET" && read) return answer(Number(read[1]));
    if (req.method !== "POST" || !req.path.startsWith("/orders")) return undefined;
    const id = 100 + orders.size;
    orders.set(id, (JSON.parse(req.body) as { downstream_order_no: string }).downstream_order_no);
    return answer(id);
  };
});

const local = (upstreamProductId: number) =>
  db().product.findFirstOrThrow({ where: { upstreamConnectionId: connectionId, upstreamProductId }, include: { skus: true } });

let orderSeq = 0;
async function buy(upstreamProductId: number, quantity: number) {
  const sku = (await local(upstreamProductId)).skus[0];
  const buyer = await makeBuyer({ pointsCents: 100_000n });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: "P",
    input: { downstreamOrderNo: `CHK-${++orderSeq}`, skuId: sku.id, quantity },
  });
  const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } });
  await runPurchaseJob({ purchaseId: purchase.id });
  return { order: await reload(order.id), buyer, sku };
}
const reload = (orderId: number) =>
  db().order.findUniqueOrThrow({ where: { id: orderId }, include: { upstreamPurchase: true, fulfillment: true } });
const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? String(x) : x));

describe("issue 22.1: an upstream delivery is checked before it is accepted", () => {
  it("issue 22.1: a short delivery (1 line for a quantity of 5) goes to review; nothing is delivered and no key is stored", async () => {
    delivery = { lines: ["ONLY-ONE-KEY"], amount: "50.00" };
    const { order } = await buy(1, 5);
    expect(order).toMatchObject({
      status: "unknown_review",
      fulfillment: null,
      upstreamPurchase: { status: "unknown", upstreamOrderId: anyNumber() },
    });
    expect(order.upstreamPurchase!.lastError).toBe("the upstream delivered 1 line(s) for a quantity of 5; nothing was delivered");
    expect(json(order)).not.toContain("ONLY-ONE-KEY");
    expect(await db().fulfillment.count({ where: { orderId: order.id } })).toBe(0);
  }, 60_000);

  it("issue 22.1: an empty or unstorable line goes to review; nothing is delivered", async () => {
    delivery = { lines: ["GOOD-KEY-1", "   "], amount: "20.00" };
    const blank = (await buy(1, 2)).order;
    expect(blank).toMatchObject({ status: "unknown_review", fulfillment: null });
    expect(blank.upstreamPurchase!.lastError).toBe("the upstream's line 2 cannot be stored (card key is empty); nothing was delivered");

    delivery = { lines: ["GOOD-KEY-1", "BAD\u0007KEY"], amount: "20.00" };
    const control = (await buy(1, 2)).order;
    expect(control.upstreamPurchase!.lastError).toMatch(
      /^the upstream's line 2 cannot be stored \(card key contains a line break or control character\)/,
    );

    // The product's delivery format (account----password) applies as when keys enter stock (D14).
    delivery = { lines: ["user----pass", "no-delimiter"], amount: "20.00" };
    const format = (await buy(2, 2)).order;
    expect(format).toMatchObject({ status: "unknown_review", fulfillment: null });
    expect(format.upstreamPurchase!.lastError).toMatch(/^the upstream's line 2 cannot be stored \(account_password key must be/);
    expect(json([blank, control, format])).not.toContain("GOOD-KEY-1");
  }, 60_000);

  it("issue 22.1: a cost above the ceiling (default: our sale price) goes to review; the administrator raises the ceiling and a re-check delivers", async () => {
    delivery = { lines: ["COSTLY-KEY"], amount: "999.00" };
    const { order, sku } = await buy(1, 1);
    expect(order).toMatchObject({
      status: "unknown_review",
      fulfillment: null,
      upstreamPurchase: { status: "unknown", costCents: 99_900n },
    });
    expect(order.upstreamPurchase!.lastError).toBe(
      "the upstream charged 999.00 for 1 unit(s), above the maximum cost of 10.00 per unit; nothing was delivered",
    );

    // The administrator's decision: a ceiling of 999.00 for this SKU, then "check the upstream again".
    const journalled = () => db().catalogChange.count({ where: { skuId: sku.id } });
    const before = await journalled();
    await setUpstreamMaxCost({ skuId: sku.id, maxCostCents: 99_900n, actor: SYSTEM_ACTOR });
    expect(await journalled()).toBe(before); // our own column: not a catalogue change (decision 0018)
    await recheckUpstreamPurchase({ orderNo: order.orderNo, actor: SYSTEM_ACTOR });
    await runPurchaseJob({ purchaseId: order.upstreamPurchase!.id, recheck: true });
    expect(await reload(order.id)).toMatchObject({ status: "delivered", upstreamPurchase: { status: "delivered", costCents: 99_900n } });
    expect(await db().auditLog.count({ where: { action: "upstream.max_cost", targetId: String(sku.id) } })).toBe(1);
    await setUpstreamMaxCost({ skuId: sku.id, maxCostCents: null, actor: SYSTEM_ACTOR }); // back to the default (the sale price)
  }, 60_000);

  it("issue 22.1 (decision 0052): a product the upstream lists as manual is delivered with its operator's lines, however many; no line, a blank line or a cost above the ceiling still go to review", async () => {
    // D21: a manual delivery is one delivery_data entry per line of the text its operator typed.
    delivery = { lines: ["Account: alice", "Topped up 100 credits"], amount: "10.00" };
    const note = (await buy(7, 1)).order;
    expect(note).toMatchObject({ status: "delivered", fulfillment: { source: "upstream" }, upstreamPurchase: { status: "delivered" } });
    delivery = { lines: ["Done for both"], amount: "20.00" };
    expect((await buy(7, 2)).order).toMatchObject({ status: "delivered" });

    delivery = { lines: [], amount: "10.00" };
    const none = (await buy(7, 1)).order;
    expect(none).toMatchObject({ status: "unknown_review", fulfillment: null });
    expect(none.upstreamPurchase!.lastError).toBe("the upstream delivered 0 line(s) for a quantity of 1; nothing was delivered");
    delivery = { lines: ["Account: alice", " "], amount: "10.00" };
    expect((await buy(7, 1)).order.upstreamPurchase!.lastError).toBe(
      "the upstream's line 2 cannot be stored (card key is empty); nothing was delivered",
    );
    delivery = { lines: ["Account: alice"], amount: "10.01" };
    expect((await buy(7, 1)).order).toMatchObject({ status: "unknown_review", fulfillment: null });
  }, 60_000);

  it("issue 22.1: a cost at or below the ceiling is delivered", async () => {
    delivery = { lines: ["AT-1", "AT-2"], amount: "20.00" };
    const at = (await buy(1, 2)).order;
    expect(at).toMatchObject({
      status: "delivered",
      fulfillment: { source: "upstream" },
      upstreamPurchase: { status: "delivered", costCents: 2_000n },
    });

    delivery = { lines: ["BELOW-1"], amount: "9.99" };
    expect((await buy(1, 1)).order).toMatchObject({ status: "delivered", upstreamPurchase: { costCents: 999n } });
  }, 60_000);
});

describe("issue 22.1: a suspicious upstream price holds the product until an administrator accepts it", () => {
  it("issue 22.1: a price of 0.00 or a drop of more than 50 % holds the product with a reason in the import result; it is not orderable until accepted", async () => {
    sup.items = [upstreamProduct(3), upstreamProduct(4), upstreamProduct(5)];
    await importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR });
    const zeroSku = { id: 30, sku_code: "S3", spec_values: {}, price_amount: "0.00", stock_quantity: -1, is_active: true };
    const halfSku = { id: 50, sku_code: "S5", spec_values: {}, price_amount: "5.00", stock_quantity: -1, is_active: true };
    const dropSku = { id: 40, sku_code: "S4", spec_values: {}, price_amount: "4.99", stock_quantity: -1, is_active: true };
    sup.items = [
      upstreamProduct(3, { price_amount: "0.00", skus: [zeroSku] }),
      upstreamProduct(4, { skus: [dropSku] }),
      upstreamProduct(5, { price_amount: "5.00", skus: [halfSku] }), // exactly half: not more than 50 %
      upstreamProduct(6, { price_amount: "0.00", skus: [{ ...zeroSku, id: 60, sku_code: "S6" }] }), // new, and free
    ];
    const r = await cli<{ held: unknown[] }>("upstream:import", "--connection", String(connectionId));
    expect(r.code, r.stderr).toBe(0);
    const p3 = await local(3),
      p4 = await local(4),
      p6 = await local(6);
    expect(r.json.held).toEqual([
      { upstream_product_id: 3, product_id: p3.id, reason: "price_amount: 0.00" },
      { upstream_product_id: 4, product_id: p4.id, reason: "skus[0].price_amount: fell from 10.00 to 4.99 (more than 50 %)" },
      { upstream_product_id: 6, product_id: p6.id, reason: "price_amount: 0.00" },
    ]);
    expect(p3).toMatchObject({ isActive: false, holdReason: "price_amount: 0.00", priceCents: 0n });
    expect(p4).toMatchObject({ isActive: false, skus: [expect.objectContaining({ priceCents: 499n })] });
    expect(await local(5)).toMatchObject({ isActive: true, holdReason: null, priceCents: 500n });

    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const order = (no: string, skuId: number) =>
      createOrder({
        credential: { id: buyer.id, userId: buyer.user.id },
        profile: "P",
        input: { downstreamOrderNo: no, skuId, quantity: 1 },
      });
    for (const p of [p3, p4, p6]) await expect(order(`HELD-${p.id}`, p.skus[0].id)).rejects.toMatchObject({ code: "sku_unavailable" });

    // A re-import at the same price keeps the hold: only an administrator releases it.
    expect((await importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR })).held.map((h) => h.upstreamProductId)).toEqual([3, 4, 6]);
    expect(await local(4)).toMatchObject({ isActive: false });

    const accepted = await acceptHeldProduct({ productId: p4.id, actor: SYSTEM_ACTOR });
    expect(accepted).toEqual({ productId: p4.id, isActive: true });
    expect(await local(4)).toMatchObject({ isActive: true, holdReason: null });
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: "upstream.accept_price", targetId: String(p4.id) } });
    expect(audit.details).toMatchObject({ reason: "skus[0].price_amount: fell from 10.00 to 4.99 (more than 50 %)" });
    const { order: sold } = await order("ACCEPTED-4", p4.skus[0].id);
    expect(sold.amountCents).toBe(499n);
    await expect(acceptHeldProduct({ productId: p4.id, actor: SYSTEM_ACTOR })).rejects.toMatchObject({ code: "conflict" });

    // Accepted: the next import at that price does not hold it again; the CLI lists and accepts the rest.
    expect((await importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR })).held.map((h) => h.upstreamProductId)).toEqual([3, 6]);
    const list = await cli<{ held: { product_id: number }[] }>("upstream:held");
    expect(list.json.held.map((h: { product_id: number }) => h.product_id)).toEqual([p3.id, p6.id]);
    const acc = await cli("upstream:accept", "--product", String(p3.id));
    expect(acc.json).toEqual({ product_id: p3.id, is_active: true });
    expect(await local(3)).toMatchObject({ isActive: true, holdReason: null });
  }, 180_000);
});
