import { beforeAll, describe, expect, it } from "vitest";
import { db, dbPool } from "../db/client";
import { onPool } from "../db/sql-rows";
import type { AppError } from "../errors";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { balanceOf } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { newOrderNo } from "./order-number";
import { placeOrder, type PlaceOrderRow } from "./place-order";

// Issue 28.1 (decision 0045, addendum): place_order's first pick of a
// one-key order runs without a subtransaction; an order of several keys keeps
// it (a short pick lets go of what it locked). Either way the pick hint is
// only a hint, a key locked by another order is skipped, not waited for, and
// an order that finds no key writes nothing.

beforeAll(async () => {
  await useTestDatabase();
});

async function setup(keyCount: number) {
  const buyer = await makeBuyer({ pointsCents: 10_000n });
  const { sku, product } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("PICK", keyCount) });
  const ids = (await db().cardKey.findMany({ where: { skuId: sku.id }, orderBy: { id: "asc" }, select: { id: true } })).map((k) => k.id);
  const row = (n: number, quantity: number, pickAfter: bigint): PlaceOrderRow => ({
    orderNo: newOrderNo(),
    credentialId: buyer.id,
    userId: buyer.user.id,
    profile: "U",
    downstreamOrderNo: `PICK-${n}`,
    requestDigest: "d",
    requestRawDigest: "r",
    traceId: null,
    callbackUrl: null,
    manualFormData: {},
    skuId: sku.id,
    productId: product.id,
    title: { en: "t" },
    quantity,
    auto: true,
    deliveryFormat: "text",
    pickAfter: String(pickAfter),
  });
  return { buyer, sku, ids, row };
}

describe("place_order's key pick (issue 28.1)", () => {
  it("issue 28.1: a one-key order whose hint is past every available key still takes the lowest one", async () => {
    const { ids, row } = await setup(3);
    const first = await placeOrder(onPool, row(1, 1, ids[2]));
    expect(first?.keys.map((k) => k.id)).toEqual([ids[0]]);
    const second = await placeOrder(onPool, row(2, 1, 0n));
    expect(second?.keys.map((k) => k.id)).toEqual([ids[1]]);
  });

  it("issue 28.1: a one-key order skips a key another transaction holds, and takes it once that one lets go", async () => {
    const { ids, row } = await setup(2);
    const other = await dbPool().connect();
    try {
      await other.query("BEGIN");
      // What an order in flight holds (decision 0103): the key's stock row, and the key it is updating.
      await other.query(`SELECT 1 FROM "KeyStock" WHERE "keyId" = $1 FOR UPDATE`, [String(ids[0])]);
      await other.query(`SELECT 1 FROM "CardKey" WHERE "id" = $1 FOR UPDATE`, [String(ids[0])]);
      const placed = await placeOrder(onPool, row(1, 1, 0n));
      expect(placed?.keys.map((k) => k.id)).toEqual([ids[1]]);
      await other.query("ROLLBACK");
    } finally {
      other.release();
    }
    const next = await placeOrder(onPool, row(2, 1, ids[1]));
    expect(next?.keys.map((k) => k.id)).toEqual([ids[0]]);
  });

  it("issue 28.1: an order of two keys with one above its hint gets the two lowest, each key once", async () => {
    const { sku, ids, row } = await setup(4);
    const placed = await placeOrder(onPool, row(1, 2, ids[2]));
    expect(placed?.keys.map((k) => k.id)).toEqual([ids[0], ids[1]]);
    const delivered = await db().cardKey.findMany({ where: { skuId: sku.id, status: "delivered" }, orderBy: { id: "asc" } });
    expect(delivered.map((k) => [k.id, k.orderId])).toEqual([
      [ids[0], placed!.id],
      [ids[1], placed!.id],
    ]);
  });

  it("issue 28.1: a one-key order with no key left is insufficient_stock and writes nothing", async () => {
    const { buyer, ids, row } = await setup(1);
    await placeOrder(onPool, row(1, 1, 0n));
    const err = await placeOrder(onPool, row(2, 1, ids[0])).catch((e: AppError) => e);
    expect((err as AppError).code).toBe("insufficient_stock");
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(1);
    expect(await balanceOf(buyer.user.id)).toBe(9_900n);
  });
});
