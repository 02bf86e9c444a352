import { db } from "../db/client";

/** A product with its SKUs and, per SKU, available/delivered card-key counts and its member-level prices (level slug → fen). */
export async function getProduct(id: number) {
  const product = await db().product.findFirst({
    where: { id, deletedAt: null },
    include: {
      skus: {
        where: { deletedAt: null },
        orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
        include: { levelPrices: { select: { priceCents: true, level: { select: { slug: true } } } } },
      },
    },
  });
  if (!product) return null;
  const counts = await db().cardKey.groupBy({
    by: ["skuId", "status"],
    where: { skuId: { in: product.skus.map((s) => s.id) } },
    _count: { _all: true },
  });
  const count = (skuId: number, status: "available" | "delivered") =>
    counts.find((c) => c.skuId === skuId && c.status === status)?._count._all ?? 0;
  return {
    ...product,
    skus: product.skus.map(({ levelPrices, ...s }) => ({
      ...s,
      available: count(s.id, "available"),
      delivered: count(s.id, "delivered"),
      levelPrices: Object.fromEntries(levelPrices.map((p) => [p.level.slug, p.priceCents])),
    })),
  };
}
