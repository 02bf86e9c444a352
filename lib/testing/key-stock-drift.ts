import { db } from "../db/client";

/**
 * Decision 0103: keys the stock ("KeyStock") and the keys' status disagree on
 * (either way), and delivered keys that no run of their order
 * ("OrderKeyRange") covers. Both 0 when the "CardKey" triggers kept up.
 */
export async function keyStockDrift(): Promise<{ stock: bigint; uncovered: bigint }> {
  const [d] = await db().$queryRaw<{ stock: bigint; uncovered: bigint }[]>`
    SELECT (SELECT count(*) FROM ((SELECT "skuId", "id" FROM "CardKey" WHERE "status" = 'available') EXCEPT ALL
                                  (SELECT "skuId", "keyId" FROM "KeyStock")) x) +
           (SELECT count(*) FROM ((SELECT "skuId", "keyId" FROM "KeyStock") EXCEPT ALL
                                  (SELECT "skuId", "id" FROM "CardKey" WHERE "status" = 'available')) x) AS stock,
           (SELECT count(*) FROM "CardKey" k WHERE k."orderId" IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM "OrderKeyRange" r WHERE r."orderId" = k."orderId" AND k."id" BETWEEN r."fromId" AND r."toId")) AS uncovered`;
  return d;
}
