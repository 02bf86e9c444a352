import type { Tx } from "../db/tx";

/**
 * D22: a failed order gives back what it took. Card keys of an `auto` order
 * return to the pool with their order cleared (in practice an auto order is
 * delivered inside its create transaction or never exists, so this finds
 * nothing; it stays for completeness). `manual` and `upstream` SKUs get their
 * stock number back, unless unlimited (null). Returns what was released.
 */
export async function releaseStock(tx: Tx, orderId: number): Promise<{ cardKeys: number; units: number }> {
  const cardKeys = await tx.$executeRaw`
    UPDATE "CardKey" SET "status" = 'available', "orderId" = NULL, "deliveredAt" = NULL
    WHERE "id" IN (SELECT "id" FROM order_keys(${orderId}))`;
  const items = await tx.$queryRaw<{ skuId: number; quantity: number; fulfillmentType: string }[]>`
    SELECT oi."skuId", oi."quantity", p."fulfillmentType"::text AS "fulfillmentType"
    FROM "OrderItem" oi JOIN "Sku" s ON s."id" = oi."skuId" JOIN "Product" p ON p."id" = s."productId"
    WHERE oi."orderId" = ${orderId}`;
  let units = 0;
  for (const item of items) {
    if (item.fulfillmentType === "auto") continue;
    const n = await tx.$executeRaw`
      UPDATE "Sku" SET "stockQuantity" = "stockQuantity" + ${item.quantity}, "updatedAt" = now()
      WHERE "id" = ${item.skuId} AND "stockQuantity" IS NOT NULL`;
    if (n) units += item.quantity;
  }
  return { cardKeys, units };
}
