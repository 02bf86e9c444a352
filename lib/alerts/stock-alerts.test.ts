import { SYSTEM_ACTOR } from "../audit/actor";
import { beforeAll, describe, expect, it } from "vitest";
import { withCardKeyStage } from "../catalog/card-key-transaction";
import { importCatalog } from "../catalog/import-catalog";
import { validateCatalogFile } from "../catalog/validate-catalog-file";
import { db } from "../db/client";
import { createOrder } from "../orders/create-order";
import { cardKeysFor, makeBuyer } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { addAlertChannel } from "./add-channel";
import { checkStock } from "./checks/stock";
import { setAlertRule } from "./set-rule";
import { setSkuThreshold } from "./set-sku-threshold";

// Issue 33.8: a low-stock alert is never lost to timing. Several checkStock()
// calls at once stand for the periodic check of two instances' workers; the
// alert is the AlertEvent row (its dispatch job queued with it), so no worker
// runs here.

const file = (skus: { sku_code: string; card_keys: string[] }[]) =>
  validateCatalogFile({
    categories: [{ slug: "st-cat", name: { "zh-CN": "分类", en: "Cat" } }],
    products: [
      {
        slug: `st-${skus[0].sku_code.toLowerCase()}`,
        category: "st-cat",
        title: { "zh-CN": "商品", en: "Stock product" },
        fulfillment_type: "auto",
        price_amount: "1.00",
        skus,
      },
    ],
  });

/** A fresh SKU code per call, so a retried test starts from nothing. */
let n = 0;
const code = (name: string) => `ST-${name}-${process.pid}-${Date.now() % 100_000}-${++n}`;

async function imported(skuCode: string, keys: number) {
  await importCatalog(file([{ sku_code: skuCode, card_keys: cardKeysFor(skuCode, keys) }]), { actor: SYSTEM_ACTOR });
  return db().sku.findUniqueOrThrow({ where: { skuCode } });
}

const events = (skuId: number, kind: "stock_low" | "stock_recovered") =>
  db().alertEvent.findMany({ where: { dedupeKey: { startsWith: `${kind}:${skuId}:` } }, orderBy: { id: "asc" } });

/** The dispatch job queued with an alert event. */
const dispatchJobs = async (eventId: bigint) =>
  (
    await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'alert:dispatch' AND j.payload->>'eventId' = ${String(eventId)}`
  )[0].n;

const checksAtOnce = () => Promise.all([checkStock(), checkStock(), checkStock()]);

beforeAll(async () => {
  await useTestDatabase();
});

describe("issue 33.8: stock alerts are never lost to timing", () => {
  it("issue 33.8: a SKU imported with 8 keys (threshold 10) alerts once, 'low since it was added'; a SKU created with 0 keys does not", async () => {
    const low = await imported(code("EIGHT"), 8);
    const empty = await imported(code("EMPTY"), 0);
    await checksAtOnce();
    await checkStock();
    const [alert, ...more] = await events(low.id, "stock_low");
    expect(more).toHaveLength(0);
    expect(alert?.params).toMatchObject({ skuCode: low.skuCode, stock: 8, threshold: 10, since: "added" });
    expect(await dispatchJobs(alert.id)).toBe(1);
    expect(await events(empty.id, "stock_low")).toHaveLength(0);
    expect(await db().alertCondition.findUnique({ where: { key: `stock:${empty.id}` } })).toMatchObject({ active: true });
  });

  it("issue 33.8: sku:threshold 5, then 20 concurrent sales to 0 within one check interval: one low alert; the restock: one back in stock", async () => {
    const sku = await imported(code("SALES"), 8);
    await checkStock(); // recorded (and told) as low under the default 10
    const before = (await events(sku.id, "stock_low")).length;
    await setSkuThreshold({ skuCode: sku.skuCode, stock: 5 }, { actor: SYSTEM_ACTOR });

    const buyer = await makeBuyer({ pointsCents: 100_000n });
    const sales = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        createOrder({
          credential: { id: buyer.id, userId: buyer.user.id },
          profile: "P",
          input: { downstreamOrderNo: `${sku.skuCode}-${i}`, skuId: sku.id, quantity: 1 },
        }),
      ),
    );
    expect(sales.filter((s) => s.status === "fulfilled")).toHaveLength(8);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "available" } })).toBe(0);

    await checkStock(); // the one check of the interval after the sales
    await checksAtOnce();
    const lows = (await events(sku.id, "stock_low")).slice(before);
    expect(lows).toHaveLength(1);
    expect(lows[0].params).toMatchObject({ stock: 0, threshold: 5 });

    await withCardKeyStage(
      async (_tx, stage) => {
        for (const key of cardKeysFor("ST-REFILL", 12)) await stage.add(sku.skuCode, key);
        await stage.moveInto();
      },
      { source: "import" },
    );
    await checksAtOnce();
    await checkStock();
    const back = await events(sku.id, "stock_recovered");
    expect(back).toHaveLength(1);
    expect(back[0].params).toMatchObject({ stock: 12, threshold: 5 });
    expect((await events(sku.id, "stock_low")).slice(before)).toHaveLength(1);
  });

  it("issue 33.8: a threshold raised above the stock alerts at once, in the same transaction; the site-wide number is judged again too", async () => {
    const sku = await imported(code("RAISE"), 30);
    await checkStock(); // 30 keys, above 10: recorded, no alert
    expect((await setSkuThreshold({ skuCode: sku.skuCode, stock: 40 }, { actor: SYSTEM_ACTOR })).alert).toBe("stock_low");
    expect((await events(sku.id, "stock_low")).map((e) => e.params)).toEqual([expect.objectContaining({ since: "threshold" })]);
    await checksAtOnce();
    expect(await events(sku.id, "stock_low")).toHaveLength(1);

    const onDefault = await imported(code("DEFAULT"), 30);
    await checkStock();
    try {
      await setAlertRule({ event: "stock_low", threshold: 50 }, { actor: SYSTEM_ACTOR });
      expect((await events(onDefault.id, "stock_low")).map((e) => e.params)).toEqual([expect.objectContaining({ threshold: 50 })]);
    } finally {
      await setAlertRule({ event: "stock_low", threshold: 10 }, { actor: SYSTEM_ACTOR });
    }
  });

  it("issue 33.8: alerts:rule:set accepts unknown_review (the order state operators see) for order_review", async () => {
    const channel = await addAlertChannel(
      {
        kind: "telegram",
        name: "review chat",
        botToken: "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678",
        chatId: "-100",
      },
      { actor: SYSTEM_ACTOR },
    );
    const rule = await setAlertRule({ event: "unknown_review", channelId: channel.id, enabled: false }, { actor: SYSTEM_ACTOR });
    expect(rule).toEqual({ event: "order_review", channel_id: channel.id, enabled: false, threshold: null });
    expect(await db().alertRule.findUnique({ where: { channelId_event: { channelId: channel.id, event: "order_review" } } })).toMatchObject(
      {
        enabled: false,
      },
    );
  });
});
