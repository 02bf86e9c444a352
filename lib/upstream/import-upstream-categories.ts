import type { Tx } from "../db/tx";
import { updateChanged } from "../catalog/same-content";
import type { UpstreamImportCounts } from "./upstream-import-counts";
import type { UpstreamCategory } from "./upstream-client";

/**
 * The category part of an upstream import (import-upstream-catalog.ts), in
 * its transaction: rows first, then parents (the upstream may list a child
 * before its parent); a local category the upstream no longer lists is
 * hidden (deletedAt). Counts into `counts`; returns upstream id → local id.
 */
export async function importUpstreamCategories(
  tx: Tx,
  {
    connId,
    categories,
    counts,
  }: {
    connId: number;
    categories: UpstreamCategory[];
    counts: UpstreamImportCounts;
  },
): Promise<Map<number, number>> {
  const localCats = await tx.category.findMany({ where: { upstreamConnectionId: connId } });
  const catByUpstream = new Map(localCats.map((c) => [c.upstreamCategoryId!, c]));
  const catId = new Map<number, number>();
  const touched = new Set<number>();
  for (const c of categories) {
    const data = { slug: `up${connId}-${c.slug}`, name: c.name, sortOrder: c.sort_order, deletedAt: null };
    const existing = catByUpstream.get(c.id);
    if (!existing) {
      const row = await tx.category.create({ data: { ...data, upstreamConnectionId: connId, upstreamCategoryId: c.id } });
      catId.set(c.id, row.id);
      counts.categoriesCreated++;
      touched.add(row.id);
    } else {
      catId.set(c.id, existing.id);
      if (await updateChanged({ existing, data, update: (changed) => tx.category.update({ where: { id: existing.id }, data: changed }) })) {
        counts.categoriesUpdated++;
        touched.add(existing.id);
      }
    }
  }
  for (const c of categories) {
    const id = catId.get(c.id)!;
    const parentId = c.parent_id ? (catId.get(c.parent_id) ?? null) : null;
    const current = catByUpstream.get(c.id)?.parentId ?? null;
    if (parentId === current) continue;
    await tx.category.update({ where: { id }, data: { parentId } });
    if (!touched.has(id)) counts.categoriesUpdated++;
    touched.add(id);
  }
  const listedCats = new Set(categories.map((c) => c.id));
  for (const c of localCats) {
    if (listedCats.has(c.upstreamCategoryId!) || c.deletedAt) continue;
    await tx.category.update({ where: { id: c.id }, data: { deletedAt: new Date() } });
    counts.categoriesDelisted++;
  }
  return catId;
}
