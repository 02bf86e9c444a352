import { db } from "../db/client";

/** Issue 38: a SKU's code and quantity tiers, for the console's SKU page. */
export async function getSkuTiers(skuId: number) {
  const sku = await db().sku.findUnique({
    where: { id: skuId },
    select: { skuCode: true, priceTiers: { orderBy: { minQuantity: "asc" }, select: { minQuantity: true, priceCents: true } } },
  });
  return sku && { skuCode: sku.skuCode, tiers: sku.priceTiers };
}
