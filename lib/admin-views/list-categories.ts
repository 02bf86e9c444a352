import { db } from "../db/client";
import { toLanguageText, type LanguageText } from "../protocol/language";

export interface CategoryNode {
  id: number;
  slug: string;
  name: LanguageText;
  sortOrder: number;
  parentId: number | null;
  depth: number;
  products: number;
}

/** Live categories as a flattened tree (parents before children, siblings by sort order then id). */
export async function listCategoryTree(): Promise<CategoryNode[]> {
  const rows = await db().category.findMany({
    where: { deletedAt: null },
    orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    select: {
      id: true,
      slug: true,
      name: true,
      sortOrder: true,
      parentId: true,
      _count: { select: { products: { where: { deletedAt: null } } } },
    },
  });
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, typeof rows>();
  for (const r of rows) {
    const key = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    children.set(key, [...(children.get(key) ?? []), r]);
  }
  const out: CategoryNode[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const r of children.get(parent) ?? []) {
      out.push({
        id: r.id,
        slug: r.slug,
        name: toLanguageText(r.name),
        sortOrder: r.sortOrder,
        parentId: r.parentId,
        depth,
        products: r._count.products,
      });
      if (depth < 50) walk(r.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
