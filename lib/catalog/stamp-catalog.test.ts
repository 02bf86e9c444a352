import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { createOrder } from "../orders/create-order";
import { withCardKeyStage } from "./card-key-transaction";
import { MICROS, stampCatalog } from "./stamp-catalog";

// Issues 12.1 and 13.2: the change journal and stamp_catalog(). Each kind of
// change gives the product a new stamp after the clock; nothing else does;
// the available-key count follows sales, imports and deletions without any
// write to a product or SKU row on the order path.

beforeAll(async () => {
  await useTestDatabase();
}, 60_000);

const stampOf = async (productId: number) =>
  Number(
    (await db().$queryRaw<{ s: bigint }[]>`SELECT ${MICROS('"updatedAt"')} AS s FROM "ProductStamp" WHERE "productId" = ${productId}`)[0]
      ?.s ?? 0,
  );
const availableOf = async (skuId: number) =>
  (await db().$queryRaw<{ n: number }[]>`SELECT "availableKeys" AS n FROM "SkuStamp" WHERE "skuId" = ${skuId}`)[0]?.n;

describe("stamp_catalog (issues 12.1, 13.2)", () => {
  it("stamps new products, moves only changed ones, keeps stamps unique and after the clock", async () => {
    const a = await makeProduct({ cardKeys: cardKeysFor("a", 3) });
    const b = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5 });
    const clock1 = (await stampCatalog())!;
    const [sa, sb] = [await stampOf(a.product.id), await stampOf(b.product.id)];
    expect(sa).toBeGreaterThan(0);
    expect(sa).not.toBe(sb);
    expect(Math.max(sa, sb)).toBeLessThanOrEqual(clock1);
    expect(await availableOf(a.sku.id)).toBe(3);

    // Nothing changed: nothing moves, the clock stays.
    expect(await stampCatalog()).toBe(clock1);
    expect(await stampOf(a.product.id)).toBe(sa);

    // A save that changes nothing (Prisma still writes updatedAt) is not a change.
    await db().product.update({ where: { id: a.product.id }, data: { isActive: true } });
    expect(await stampCatalog()).toBe(clock1);

    // An edit of b moves b only.
    await db().product.update({ where: { id: b.product.id }, data: { isActive: false } });
    const clock2 = (await stampCatalog())!;
    expect(clock2).toBeGreaterThan(clock1);
    expect(await stampOf(b.product.id)).toBe(clock2);
    expect(await stampOf(a.product.id)).toBe(sa);
  });

  it("a sale and a key import move the stamp and the available count (D13)", async () => {
    const buyer = await makeBuyer({ pointsCents: 100_000n });
    const a = await makeProduct({ cardKeys: cardKeysFor("s", 4) });
    await stampCatalog();
    const before = await stampOf(a.product.id);
    await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { skuId: a.sku.id, quantity: 2, downstreamOrderNo: `S-${Date.now()}` },
    });
    await stampCatalog();
    expect(await availableOf(a.sku.id)).toBe(2);
    const afterSale = await stampOf(a.product.id);
    expect(afterSale).toBeGreaterThan(before);

    await withCardKeyStage(
      async (_tx, stage) => {
        for (const key of cardKeysFor("t", 5)) await stage.add(a.sku.skuCode, key);
        await stage.moveInto();
      },
      { source: "import" },
    );
    await stampCatalog();
    expect(await availableOf(a.sku.id)).toBe(7);
    expect(await stampOf(a.product.id)).toBeGreaterThan(afterSale);
  });

  it("a recount repairs a drifted count", async () => {
    const a = await makeProduct({ cardKeys: cardKeysFor("r", 2) });
    await stampCatalog();
    await db().$executeRaw`UPDATE "SkuStamp" SET "availableKeys" = 99 WHERE "skuId" = ${a.sku.id}`;
    await stampCatalog({ recount: true });
    expect(await availableOf(a.sku.id)).toBe(2);
  });
});
