import { db } from "../db/client";

/**
 * A SKU's card-key page: counts, batches (with what is left of each) and one
 * page of keys WITHOUT their contents (the console shows them masked; see
 * lib/catalog/reveal-card-key.ts for the audited reveal).
 */
export async function getSkuStock(skuId: number, page = 1, pageSize = 50) {
  const sku = await db().sku.findFirst({
    where: { id: skuId, deletedAt: null },
    include: {
      product: { select: { id: true, slug: true, title: true, fulfillmentType: true, deliveryFormat: true, deliveryDelimiter: true } },
    },
  });
  if (!sku) return null;
  const [byStatus, batches, batchCounts, keys] = await Promise.all([
    db().cardKey.groupBy({ by: ["status"], where: { skuId }, _count: { _all: true } }),
    db().cardKeyBatch.findMany({ where: { skuId }, orderBy: { id: "desc" }, take: 100 }),
    db().cardKey.groupBy({ by: ["batchId", "status"], where: { skuId }, _count: { _all: true } }),
    db().cardKey.findMany({
      where: { skuId },
      orderBy: { id: "desc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: { id: true, status: true, batchId: true, createdAt: true, deliveredAt: true },
    }),
  ]);
  const n = (status: "available" | "delivered") => byStatus.find((c) => c.status === status)?._count._all ?? 0;
  const inBatch = (batchId: number, status: "available" | "delivered") =>
    batchCounts.find((c) => c.batchId === batchId && c.status === status)?._count._all ?? 0;
  return {
    sku,
    available: n("available"),
    delivered: n("delivered"),
    batches: batches.map((b) => ({ ...b, available: inBatch(b.id, "available"), delivered: inBatch(b.id, "delivered") })),
    keys,
  };
}
