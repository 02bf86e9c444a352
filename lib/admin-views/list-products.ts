import { db } from "../db/client";
import type { Paging } from "./paging";

export const PRODUCT_SORTS = ["id", "slug", "createdAt"] as const;

/** One page of live products for the console's product table. */
export async function listProducts(input: { paging: Paging<(typeof PRODUCT_SORTS)[number]>; q?: string; categoryId?: number }) {
  const where = {
    deletedAt: null,
    ...(input.categoryId ? { categoryId: input.categoryId } : {}),
    ...(input.q ? { slug: { contains: input.q.trim().toLowerCase() } } : {}),
  };
  const [total, rows] = await Promise.all([
    db().product.count({ where }),
    db().product.findMany({
      where,
      orderBy: { [input.paging.sort]: input.paging.dir },
      skip: input.paging.skip,
      take: input.paging.take,
      select: {
        id: true,
        slug: true,
        title: true,
        fulfillmentType: true,
        isActive: true,
        priceCents: true,
        createdAt: true,
        category: { select: { slug: true } },
        _count: { select: { skus: { where: { deletedAt: null } } } },
      },
    }),
  ]);
  return { total, rows };
}
