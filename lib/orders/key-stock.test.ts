import { beforeAll, describe, expect, it } from "vitest";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { releaseStock } from "../fulfillment/release-stock";
import { mergedRuns, orderKeyReader, rangeBatches } from "../order-read/order-key-batches";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { keyStockDrift } from "../testing/key-stock-drift";
import { useTestDatabase } from "../testing/test-database";
import { createOrder } from "./create-order";

// Decision 0103: "KeyStock" (the available keys) and "OrderKeyRange" (each
// order's runs of key ids) are kept by the "CardKey" triggers. Whatever
// writes the keys (orders at once, a release, a deletion, a plain UPDATE),
// the stock is exactly the available keys and an order's runs find exactly
// its keys.

beforeAll(async () => {
  await useTestDatabase();
});

/** An order's keys as order_keys (SQL) and orderKeyReader (the streamed answer, read twice) find them, and as "orderId" says. */
async function keysOf(orderId: number) {
  const bySql = await db().$queryRaw<{ id: bigint }[]>`SELECT "id" FROM order_keys(${orderId}) ORDER BY "id"`;
  const read = orderKeyReader(orderId);
  const [first, second]: string[][] = [[], []];
  for await (const batch of read()) first.push(...batch);
  for await (const batch of read()) second.push(...batch);
  const truth = await db().cardKey.findMany({ where: { orderId }, orderBy: { id: "asc" }, select: { id: true, ciphertext: true } });
  expect(first).toEqual(truth.map((k) => decryptText(k.ciphertext)));
  expect(second).toEqual(first);
  return { sql: bySql.map((k) => k.id), streamed: first.length, truth: truth.map((k) => k.id) };
}

describe("decision 0103: the key stock and the order runs follow the keys", () => {
  it("concurrent orders of one and several keys, a release, a deletion and a plain update leave no drift; each order's runs find its keys", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000_000n });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const a = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("KS-A", 40) });
    const b = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("KS-B", 12) });
    expect(await keyStockDrift()).toEqual({ stock: 0n, uncovered: 0n });

    const order = (skuId: number, quantity: number, i: number) =>
      createOrder({ credential, profile: "U", input: { downstreamOrderNo: `KS-${skuId}-${i}`, skuId, quantity } });
    const results = await Promise.allSettled([
      ...Array.from({ length: 20 }, (_, i) => order(a.sku.id, 1, i)),
      order(a.sku.id, 5, 100),
      order(a.sku.id, 7, 101),
      ...Array.from({ length: 8 }, (_, i) => order(b.sku.id, 2, i)),
    ]);
    const placed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.order] : []));
    const refused = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as { code: string }).code] : []));
    expect(refused.every((c) => c === "insufficient_stock")).toBe(true);
    expect(placed.filter((o) => o.items[0].skuId === b.sku.id)).toHaveLength(6); // 12 keys, 2 each
    expect(await db().keyStock.count({ where: { skuId: a.sku.id } })).toBe(40 - 20 - 5 - 7);
    expect(await keyStockDrift()).toEqual({ stock: 0n, uncovered: 0n });
    for (const o of placed) {
      const k = await keysOf(o.id);
      expect(k.sql).toEqual(k.truth);
      expect(k.streamed).toBe(o.items[0].quantity);
      expect(k.truth).toHaveLength(o.items[0].quantity);
    }

    // A failed order gives its keys back (D22): they are in stock again, and its runs find nothing.
    const released = placed.find((o) => o.items[0].quantity === 7)!;
    await db().$transaction((tx) => releaseStock(tx, released.id));
    expect(await db().keyStock.count({ where: { skuId: a.sku.id } })).toBe(40 - 20 - 5);
    expect(await keysOf(released.id)).toEqual({ sql: [], streamed: 0, truth: [] });
    expect(await keyStockDrift()).toEqual({ stock: 0n, uncovered: 0n });

    // The released keys are sold again (to an order whose runs then have holes: keys taken meanwhile).
    const again = await order(a.sku.id, 8, 200);
    const k = await keysOf(again.order.id);
    expect(k.sql).toEqual(k.truth);
    expect(k.streamed).toBe(8);

    // Deleting available keys and a plain UPDATE of keys (as a tool might) keep the stock in step.
    await db().cardKey.deleteMany({ where: { skuId: a.sku.id, status: "available" } });
    await db().$executeRaw`UPDATE "CardKey" SET "deliveredAt" = now() WHERE "skuId" = ${b.sku.id}`;
    expect(await db().keyStock.count({ where: { skuId: a.sku.id } })).toBe(0);
    expect(await keyStockDrift()).toEqual({ stock: 0n, uncovered: 0n });
  });

  it("runs that overlap or touch are read once each, in id order, a batch at a time", () => {
    const runs = mergedRuns([
      [10n, 12n],
      [1n, 3n],
      [4n, 5n],
      [11n, 14n],
    ]);
    expect(runs).toEqual([
      [1n, 5n],
      [10n, 14n],
    ]);
    expect([...rangeBatches(runs, 4)]).toEqual([
      [[1n, 4n]],
      [
        [5n, 5n],
        [10n, 12n],
      ],
      [[13n, 14n]],
    ]);
  });
});
