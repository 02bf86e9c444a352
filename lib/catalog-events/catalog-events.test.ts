import { SYSTEM_ACTOR } from "../audit/actor";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { startWorker, type WorkerHandle } from "../worker/start-worker";
import { createOrder } from "../orders/create-order";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { cardKeysFor, makeCategory, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { hookedBuyer, settleStamps, sleep } from "../testing/catalog-events";
import { deleteCatalogWebhook } from "./delete-catalog-webhook";
import { anyNumber, stringMatching } from "@/lib/testing/matchers";

// Issue 12.2 end to end: catalogue changes → stamps → events built by the
// real tick job of an in-process worker → signed POSTs to a real loopback
// receiver. Interval 2 s (the tick runs every second).

let receiver: CallbackReceiver;
let worker: WorkerHandle;
const INTERVAL_MS = 2000;

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the receiver is on loopback
  process.env.CATALOG_EVENT_INTERVAL_SECONDS = String(INTERVAL_MS / 1000);
  process.env.CALLBACK_TIMEOUT_MS = "2000";
  const url = await useTestDatabase();
  receiver = await startCallbackReceiver();
  worker = await startWorker({ connectionString: url, concurrency: 2, pollIntervalMs: 50 });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});
beforeEach(() => {
  receiver.respond = () => ({ status: 200 });
});

describe("issue 12.2: catalogue events", () => {
  it("a price change and an active switch give one signed event with the product as the key sees it (level price)", async () => {
    const a = await makeProduct({ fulfillmentType: "manual", stockQuantity: 50, priceCents: 1000n });
    const b = await makeProduct({ cardKeys: cardKeysFor("EV", 3), priceCents: 500n });
    const level = await db().memberLevel.create({ data: { slug: `vip-${a.product.id}`, name: { "zh-CN": "VIP", en: "VIP" } } });
    await db().skuLevelPrice.create({ data: { skuId: a.sku.id, levelId: level.id, priceCents: 850n } });
    await settleStamps();
    const plain = await hookedBuyer(receiver, "plain");
    const vip = await hookedBuyer(receiver, "vip");
    await db().user.update({ where: { id: vip.buyer.user.id }, data: { memberLevelId: level.id } });

    await db().$transaction([
      db().product.update({ where: { id: a.product.id }, data: { priceCents: 1200n } }),
      db().sku.update({ where: { id: a.sku.id }, data: { priceCents: 1100n } }),
      db().product.update({ where: { id: b.product.id }, data: { isActive: false } }),
    ]);
    const [event] = await waitFor(() => (plain.events().length ? plain.events() : null));
    await waitFor(() => vip.events().length > 0);
    await sleep(INTERVAL_MS + 500);
    expect(plain.events()).toHaveLength(1);
    expect(event).toMatchObject({ event: "catalog.updated", ok: true, timestamp: anyNumber() });
    expect(Math.abs(event.timestamp - Date.now() / 1000)).toBeLessThan(30);
    const byId = new Map(event.products.map((p) => [p.id, p]));
    expect([...byId.keys()].sort()).toEqual([a.product.id, b.product.id].sort());
    expect(byId.get(a.product.id)).toEqual({
      id: a.product.id,
      updated_at: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      is_active: true,
      price_amount: "12.00",
      skus: [{ id: a.sku.id, price_amount: "11.00", stock_status: "available", stock_quantity: 50, is_active: true }],
    });
    expect(byId.get(b.product.id)).toMatchObject({
      is_active: false,
      skus: [{ id: b.sku.id, stock_status: "available", stock_quantity: 3 }],
    });
    // The member level's SKU price for the VIP key; its other fields alike.
    const vipA = vip.events()[0].products.find((p) => p.id === a.product.id)!;
    expect(vipA.skus[0].price_amount).toBe("8.50");
    expect((await plain.rows())[0]).toMatchObject({ status: "delivered", attemptCount: 1, productCount: 2 });
    await Promise.all([plain, vip].map((h) => deleteCatalogWebhook({ credentialId: h.buyer.id, actor: SYSTEM_ACTOR })));
  });

  it("many changes within the interval give one event; the next waits for the interval", async () => {
    const products = await Promise.all([1, 2, 3, 4].map(() => makeProduct({ fulfillmentType: "manual", stockQuantity: 50 })));
    await settleStamps();
    const hook = await hookedBuyer(receiver, "batch");
    await db().product.update({ where: { id: products[0].product.id }, data: { priceCents: 1500n } });
    await waitFor(() => hook.events().length === 1);
    for (const [i, p] of products.entries()) {
      await db().product.update({ where: { id: p.product.id }, data: { priceCents: 2000n + BigInt(i) } });
      await db().sku.update({ where: { id: p.sku.id }, data: { isActive: i % 2 === 0 } });
    }
    await waitFor(() => hook.events().length === 2);
    await sleep(INTERVAL_MS + 500);
    expect(hook.events()).toHaveLength(2);
    const second = hook.events()[1];
    expect(second.products.map((p) => p.id).sort()).toEqual(products.map((p) => p.product.id).sort());
    expect(second.products.find((p) => p.id === products[3].product.id)).toMatchObject({
      price_amount: "20.03",
      skus: [{ is_active: false }],
    });
    const [r1, r2] = await hook.rows();
    expect(r2.createdAt.getTime() - r1.createdAt.getTime()).toBeGreaterThanOrEqual(INTERVAL_MS - 50);
    await deleteCatalogWebhook({ credentialId: hook.buyer.id, actor: SYSTEM_ACTOR });
  });

  it("1,200 changed products give 3 events of at most 500, each product once", async () => {
    const category = await makeCategory();
    const tag = `bulk-${category.id}`;
    const text = { "zh-CN": "批量", en: "Bulk" };
    await db().product.createMany({
      data: Array.from({ length: 1200 }, (_, i) => ({
        slug: `${tag}-${i}`,
        categoryId: category.id,
        title: text,
        description: text,
        content: text,
        fulfillmentType: "manual" as const,
        priceCents: 100n,
        originalPriceCents: 200n,
      })),
    });
    const ids = (await db().product.findMany({ where: { categoryId: category.id }, select: { id: true } })).map((p) => p.id);
    await db().sku.createMany({ data: ids.map((id) => ({ productId: id, skuCode: `${tag}-${id}`, priceCents: 100n, stockQuantity: 5 })) });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "bulk");
    await db().product.updateMany({ where: { categoryId: category.id }, data: { priceCents: 150n } });
    await waitFor(() => hook.events().length >= 3, 30_000);
    await sleep(INTERVAL_MS + 500);
    const events = hook.events();
    expect(events.map((e) => e.products.length).sort((x, y) => y - x)).toEqual([500, 500, 200]);
    const seen = events.flatMap((e) => e.products.map((p) => p.id));
    expect(new Set(seen).size).toBe(1200);
    expect([...seen].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    expect(events.every((e) => e.products.every((p) => p.price_amount === "1.50"))).toBe(true);
    await deleteCatalogWebhook({ credentialId: hook.buyer.id, actor: SYSTEM_ACTOR });
  }, 90_000);

  it("stock alone: a change inside one band gives no event; crossing 10 or 0 gives one (thresholds 10,0)", async () => {
    const manual = await makeProduct({ fulfillmentType: "manual", stockQuantity: 12 });
    const auto = await makeProduct({ cardKeys: cardKeysFor("BAND", 11), priceCents: 100n });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "bands");
    const quiet = async () => {
      await sleep(INTERVAL_MS + 1000);
      return hook.events().length;
    };
    const setStock = (n: number) => db().sku.update({ where: { id: manual.sku.id }, data: { stockQuantity: n } });

    await setStock(11);
    expect(await quiet()).toBe(0);
    await setStock(10); // crosses 10
    await waitFor(() => hook.events().length === 1);
    expect(hook.events()[0].products).toEqual([
      expect.objectContaining({
        id: manual.product.id,
        skus: [expect.objectContaining({ stock_quantity: 10, stock_status: "available" })],
      }),
    ]);
    await setStock(4);
    expect(await quiet()).toBe(1);
    await setStock(0); // crosses 0
    await waitFor(() => hook.events().length === 2);
    expect(hook.events()[1].products[0].skus[0]).toMatchObject({ stock_quantity: 0, stock_status: "out_of_stock" });

    // A sale of an auto product: 11 → 10 keys crosses 10 (no product or SKU row is written by the sale).
    const credential = { id: hook.buyer.id, userId: hook.buyer.user.id };
    await createOrder({ credential, profile: "U", input: { downstreamOrderNo: `BAND-${auto.sku.id}`, skuId: auto.sku.id, quantity: 1 } });
    await waitFor(() => hook.events().length === 3);
    expect(hook.events()[2].products).toEqual([
      expect.objectContaining({ id: auto.product.id, skus: [expect.objectContaining({ stock_quantity: 10 })] }),
    ]);
    await createOrder({ credential, profile: "U", input: { downstreamOrderNo: `BAND2-${auto.sku.id}`, skuId: auto.sku.id, quantity: 1 } });
    expect(await quiet()).toBe(3);
    await deleteCatalogWebhook({ credentialId: hook.buyer.id, actor: SYSTEM_ACTOR });
  }, 60_000);

  it("a deleted product is reported once as inactive without SKUs; a new webhook hears only later changes", async () => {
    const gone = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5 });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "deleted");
    await db().product.update({ where: { id: gone.product.id }, data: { deletedAt: new Date() } });
    await waitFor(() => hook.events().length === 1);
    expect(hook.events()[0].products).toEqual([expect.objectContaining({ id: gone.product.id, is_active: false, skus: [] })]);
    await sleep(INTERVAL_MS + 500);
    expect(hook.events()).toHaveLength(1);
    await deleteCatalogWebhook({ credentialId: hook.buyer.id, actor: SYSTEM_ACTOR });
  });

  it("issue 22.5: a deleted product's event is a tombstone: no price, no level price, no SKUs", async () => {
    const gone = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5, priceCents: 4321n });
    const level = await db().memberLevel.create({ data: { slug: `tomb-${gone.product.id}`, name: { "zh-CN": "VIP", en: "VIP" } } });
    await db().skuLevelPrice.create({ data: { skuId: gone.sku.id, levelId: level.id, priceCents: 3333n } });
    await settleStamps();
    const plain = await hookedBuyer(receiver, "tomb-plain");
    const vip = await hookedBuyer(receiver, "tomb-vip");
    await db().user.update({ where: { id: vip.buyer.user.id }, data: { memberLevelId: level.id } });
    await db().product.update({ where: { id: gone.product.id }, data: { deletedAt: new Date() } });
    await waitFor(() => plain.events().length === 1 && vip.events().length === 1);
    for (const hook of [plain, vip]) {
      expect(hook.events()[0].products).toEqual([
        {
          id: gone.product.id,
          updated_at: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          is_active: false,
          price_amount: "0.00",
          skus: [],
        },
      ]);
    }
    await Promise.all([plain, vip].map((h) => deleteCatalogWebhook({ credentialId: h.buyer.id, actor: SYSTEM_ACTOR })));
  });
});
