import { db } from "../db/client";
import { formatAmount } from "../protocol/amount";

/**
 * Issue 22.1: the products an upstream import holds off sale for their price
 * (console upstream page, `upstream:held`), oldest first, with the reason and
 * the prices an acceptance would sell at (accept-held-product.ts).
 */
export async function listHeldProducts(take = 200) {
  const rows = await db().product.findMany({
    where: { holdReason: { not: null }, deletedAt: null },
    orderBy: { id: "asc" },
    take,
    select: {
      id: true,
      title: true,
      holdReason: true,
      priceCents: true,
      upstreamProductId: true,
      upstreamConnectionId: true,
      skus: { where: { deletedAt: null }, orderBy: { sortOrder: "asc" }, select: { id: true, skuCode: true, priceCents: true } },
    },
  });
  return rows.map((p) => ({
    productId: p.id,
    connectionId: p.upstreamConnectionId,
    upstreamProductId: p.upstreamProductId,
    title: p.title as { "zh-CN": string; en: string },
    reason: p.holdReason!,
    price: formatAmount(p.priceCents),
    skus: p.skus.map((s) => ({ skuId: s.id, skuCode: s.skuCode, price: formatAmount(s.priceCents) })),
  }));
}
