import type { CatalogFile, CatalogFileCategory } from "./catalog-file-schema";
import { fail } from "./validate-catalog-file";

// The checks of a catalogue import that need the database's current rows
// (import-catalog.ts runs them inside its transaction, before any write), and
// the order in which the category tree can be written.

/** Every category a product or a parent names must exist (in the file or the database), with no cycle. */
export function checkReferences(
  file: CatalogFile,
  existing: { id: number; slug: string; parentId: number | null; deletedAt: Date | null }[],
) {
  const problems: string[] = [];
  const live = existing.filter((c) => !c.deletedAt);
  const slugById = new Map(live.map((c) => [c.id, c.slug]));
  // The tree after the import: the database's, overlaid with the file's.
  const parentOf = new Map<string, string | null>(
    live.map((c) => [c.slug, c.parentId === null ? null : (slugById.get(c.parentId) ?? null)]),
  );
  for (const c of file.categories) parentOf.set(c.slug, c.parent);
  file.categories.forEach((c, i) => {
    if (c.parent !== null && !parentOf.has(c.parent)) problems.push(`categories[${i}].parent: unknown category "${c.parent}"`);
  });
  file.products.forEach((p, i) => {
    if (!parentOf.has(p.category)) problems.push(`products[${i}].category: unknown category "${p.category}"`);
  });
  file.categories.forEach((c, i) => {
    const seen = new Set([c.slug]);
    for (let at = parentOf.get(c.slug); at; at = parentOf.get(at)) {
      if (seen.has(at)) {
        problems.push(`categories[${i}].parent: category "${c.slug}" would be its own ancestor (cycle through "${at}")`);
        break;
      }
      seen.add(at);
    }
  });
  if (problems.length) fail(problems);
}

/** A sku_code is unique across the catalogue: the file may not move one to another product. */
export function checkSkuOwnership(file: CatalogFile, owner: Map<string, string>) {
  const problems: string[] = [];
  file.products.forEach((p, i) =>
    p.skus.forEach((s, j) => {
      const slug = owner.get(s.sku_code);
      if (slug && slug !== p.slug) problems.push(`products[${i}].skus[${j}].sku_code: "${s.sku_code}" belongs to product "${slug}"`);
    }),
  );
  if (problems.length) fail(problems);
}

/** Every level a SKU's level_prices names must exist (issue 12.4); the message names the SKU and the slug. */
export function checkLevelSlugs(file: CatalogFile, levelSlugs: Set<string>) {
  const problems: string[] = [];
  file.products.forEach((p, i) =>
    p.skus.forEach((s, j) => {
      for (const slug of Object.keys(s.level_prices ?? {})) {
        if (!levelSlugs.has(slug))
          problems.push(`products[${i}].skus[${j}].level_prices: SKU "${s.sku_code}" names unknown member level "${slug}"`);
      }
    }),
  );
  if (problems.length) fail(problems);
}

/** Orders categories so each parent listed in the file comes before its children (no cycles: checked). */
export function parentsFirst(categories: CatalogFileCategory[]): CatalogFileCategory[] {
  const inFile = new Map(categories.map((c) => [c.slug, c]));
  const out: CatalogFileCategory[] = [];
  const done = new Set<string>();
  const visit = (c: CatalogFileCategory) => {
    if (done.has(c.slug)) return;
    done.add(c.slug);
    const parent = c.parent === null ? undefined : inFile.get(c.parent);
    if (parent) visit(parent);
    out.push(c);
  };
  categories.forEach(visit);
  return out;
}
