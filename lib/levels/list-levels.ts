import { db } from "../db/client";

/**
 * Every member level in picker order (sort order, then id), with how many
 * buyers and level prices each has: the console's Levels page, the pickers
 * and `level:list`.
 */
export async function listLevels() {
  const levels = await db().memberLevel.findMany({
    orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    select: { id: true, slug: true, name: true, isDefault: true, sortOrder: true, _count: { select: { users: true, skuPrices: true } } },
  });
  return levels.map(({ _count, ...l }) => ({
    ...l,
    name: l.name as { "zh-CN": string; en: string },
    users: _count.users,
    skuPrices: _count.skuPrices,
  }));
}
