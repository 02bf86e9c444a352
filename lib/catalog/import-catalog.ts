import type { Tx } from "../db/tx";
import type { CardKeyStage } from "./card-key-stage";
import { withCardKeyStage } from "./card-key-transaction";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import type { CatalogFile } from "./catalog-file-schema";
import { checkLevelSlugs, checkReferences, checkSkuOwnership, parentsFirst } from "./check-catalog-references";
import { setSkuLevelPrices } from "../levels/set-sku-level-prices";
import { updateChanged } from "./same-content";
import { inTx } from "../db/sql-rows";
import { createProducts, createSkus, productData, skuData } from "./create-catalog-rows";
import { stampCatalogOwnRun } from "./stamp-catalog";
import { log } from "../log";

export interface ImportCounts {
  categoriesCreated: number;
  categoriesUpdated: number;
  productsCreated: number;
  productsUpdated: number;
  skusCreated: number;
  skusUpdated: number;
  cardKeysAdded: number;
  cardKeysSkipped: number;
  /** Level prices set, changed or cleared (issue 12.4). */
  levelPricesChanged: number;
}

/**
 * Imports a validated catalogue file (validate-catalog-file.ts) in ONE
 * transaction: upserts categories by slug, products by slug and SKUs by
 * sku_code; the caller appends the card keys, de-duplicated. A row is written only when a
 * value differs, so re-importing the same file changes nothing (no updatedAt
 * churn). Checks that need the database (unknown category, category cycle, a
 * sku_code owned by another product, an unknown member level) run before the first write; any failure
 * rolls the whole import back.
 */
export async function importCatalog(file: CatalogFile, { actor }: { actor: Actor }): Promise<ImportCounts> {
  return importStaged(async (stage) => {
    for (const p of file.products) for (const s of p.skus) for (const key of s.card_keys) await stage.add(s.sku_code, key);
    return file;
  }, actor);
}

/**
 * The import around a `load` that stages the card keys (a file in memory, or
 * read as a stream by read-catalog-stream.ts) and returns the catalogue. Keys
 * of SKUs that already exist reach "CardKey" while the file is read, the
 * others once the catalogue rows are written, all in the same transaction
 * (card-key-stage.ts), one CardKeyBatch per SKU that gets new keys, source "import".
 */
export async function importStaged(
  load: (stage: CardKeyStage) => Promise<CatalogFile>,
  actor: Actor,
  again?: (stage: CardKeyStage, skuCodes: Set<string>) => Promise<void>,
): Promise<ImportCounts> {
  // Interactive transactions time out after 5 s by default; a large key file takes longer.
  const imported = await withCardKeyStage(
    async (tx, stage) => {
      // `again` (decision 0096): keys of new SKUs are staged by a second read,
      // after their rows exist, so they move while the CLI seals the next ones.
      stage.deferNew = again !== undefined;
      const file = await load(stage);
      await stage.drain();
      const counts = await importInto(tx, file);
      if (again) {
        const codes = await stage.takeDeferred();
        if (codes.size) await again(stage, codes);
      }
      const staged = stage.count;
      const { added } = await stage.moveInto();
      const result = { ...counts, cardKeysAdded: added, cardKeysSkipped: staged - added };
      // Counts only: never a key or a file name.
      await writeAuditLog(tx, { actor, action: "catalog.import", targetType: "catalog", details: { ...result } });
      return result;
    },
    { source: "import", timeout: 600_000 },
  );
  // Issue 33.9 (decision 0065): the import stamps what it wrote before it
  // returns, so each server's next refresh (300 ms) only loads the products;
  // left to that refresh, a 10,000-product import was listed 11-12 s later.
  // The import is committed: a failed stamp is the next refresh's to redo.
  await stampCatalogOwnRun().catch((err: Error) => log.warn({ err: err.message }, "catalogue not stamped after the import"));
  return imported;
}

async function importInto(tx: Tx, file: CatalogFile): Promise<ImportCounts> {
  const counts: ImportCounts = {
    categoriesCreated: 0,
    categoriesUpdated: 0,
    productsCreated: 0,
    productsUpdated: 0,
    skusCreated: 0,
    skusUpdated: 0,
    cardKeysAdded: 0,
    cardKeysSkipped: 0,
    levelPricesChanged: 0,
  };
  const existingCategories = await tx.category.findMany();
  checkReferences(file, existingCategories);
  checkSkuOwnership(file, await otherOwners(tx, file));
  checkLevelSlugs(file, new Set((await tx.memberLevel.findMany({ select: { slug: true } })).map((l) => l.slug)));

  // ---- categories, parents first ----
  const categoryIds = new Map(existingCategories.filter((c) => !c.deletedAt).map((c) => [c.slug, c.id]));
  const bySlug = new Map(existingCategories.map((c) => [c.slug, c]));
  for (const c of parentsFirst(file.categories)) {
    const data = {
      name: c.name,
      sortOrder: c.sort_order,
      parentId: c.parent === null ? null : categoryIds.get(c.parent)!,
      deletedAt: null, // importing a deleted category brings it back
    };
    const id = await upsert({
      existing: bySlug.get(c.slug),
      data,
      counts,
      kind: "categories",
      create: () => tx.category.create({ data: { slug: c.slug, ...data } }),
      update: (id, changed) => tx.category.update({ where: { id }, data: changed }),
    });
    categoryIds.set(c.slug, id);
  }

  // ---- products and SKUs, a page at a time ----
  // The rows held are loaded per page: all 10,000 products of a big
  // supplier at once were the CLI's peak RSS (issue 13, under 300 MB). The
  // next page's rows are read while this page is compared and written (its
  // products and SKUs are others: slugs and sku_codes are unique in the file).
  const pages: CatalogFile["products"][] = [];
  for (let from = 0; from < file.products.length; from += PAGE) pages.push(file.products.slice(from, from + PAGE));
  let next = pages.length ? existingRows(tx, pages[0]) : undefined;
  for (const [i, page] of pages.entries()) {
    const rows = await next!;
    next = i + 1 < pages.length ? existingRows(tx, pages[i + 1]) : undefined;
    await importProducts(tx, page, rows, categoryIds, counts);
  }
  return counts;
}

const PAGE = 500;

/**
 * The file's SKUs that exist under another product: sku_code → that
 * product's slug. One statement for the whole file (20,000 codes of a big
 * supplier as a Prisma `in` list and a relation took half a second).
 */
async function otherOwners(tx: Tx, file: CatalogFile): Promise<Map<string, string>> {
  const codes = file.products.flatMap((p) => p.skus.map((s) => s.sku_code));
  const slugs = file.products.flatMap((p) => p.skus.map(() => p.slug));
  const rows = await inTx(tx)(
    `SELECT f.code, p.slug FROM unnest($1::text[], $2::text[]) AS f(code, slug)
       JOIN "Sku" s ON s."skuCode" = f.code JOIN "Product" p ON p.id = s."productId"
      WHERE p.slug <> f.slug`,
    [codes, slugs],
  );
  return new Map(rows.map((r) => [String(r.code), String(r.slug)]));
}

async function existingRows(tx: Tx, products: CatalogFile["products"]) {
  const [existingProducts, existingSkus] = await Promise.all([
    tx.product.findMany({ where: { slug: { in: products.map((p) => p.slug) } } }),
    tx.sku.findMany({ where: { skuCode: { in: products.flatMap((p) => p.skus.map((s) => s.sku_code)) } } }),
  ]);
  return {
    productsBySlug: new Map(existingProducts.map((p) => [p.slug, p])),
    skusByCode: new Map(existingSkus.map((s) => [s.skuCode, s])),
  };
}

/**
 * One page of products and their SKUs. Rows the database lacks are created
 * with ONE multi-row INSERT per page and table (products, then their SKUs):
 * a round trip per row, 30,000 for a first import of 10,000 products, was
 * most of its time (issue 28.3, decision 0047). Rows that exist are updated
 * one by one, and only where a value differs (same-content.ts).
 */
async function importProducts(
  tx: Tx,
  products: CatalogFile["products"],
  { productsBySlug, skusByCode }: Awaited<ReturnType<typeof existingRows>>,
  categoryIds: Map<string, number>,
  counts: ImportCounts,
): Promise<void> {
  const productIds = await createProducts(
    tx,
    products.filter((p) => !productsBySlug.has(p.slug)).map((p) => ({ slug: p.slug, ...productData(p, categoryIds) })),
  );
  counts.productsCreated += productIds.size;
  for (const p of products) {
    const existing = productsBySlug.get(p.slug);
    if (!existing) continue;
    productIds.set(p.slug, existing.id);
    const update = (changed: object) => tx.product.update({ where: { id: existing.id }, data: changed });
    if (await updateChanged({ existing, data: productData(p, categoryIds), update })) counts.productsUpdated++;
  }

  const skus = products.flatMap((p) => p.skus.map((s, index) => ({ s, data: skuData(p, s, index, productIds.get(p.slug)!) })));
  const skuIds = await createSkus(
    tx,
    skus.filter(({ s }) => !skusByCode.has(s.sku_code)).map(({ s, data }) => ({ skuCode: s.sku_code, ...data })),
  );
  counts.skusCreated += skuIds.size;
  for (const { s, data } of skus) {
    const existing = skusByCode.get(s.sku_code);
    if (existing) {
      skuIds.set(s.sku_code, existing.id);
      const update = (changed: object) => tx.sku.update({ where: { id: existing.id }, data: changed });
      if (await updateChanged({ existing, data, update })) counts.skusUpdated++;
    }
    // Present: the SKU's whole list of level prices; absent: left alone (decision 0021).
    if (s.level_prices) {
      const skuId = skuIds.get(s.sku_code)!;
      counts.levelPricesChanged += (await setSkuLevelPrices(tx, { skuId, prices: s.level_prices, replace: true })).length;
    }
  }
}

/** Creates the row, or updates only the fields whose values differ (same-content.ts). Returns the id. */
async function upsert<T extends { id: number }>({
  existing,
  data,
  counts,
  kind,
  create,
  update,
}: {
  existing: (T & Record<string, unknown>) | undefined;
  data: Record<string, unknown>;
  counts: ImportCounts;
  kind: "categories" | "products" | "skus";
  create: () => Promise<{ id: number }>;
  update: (id: number, changed: object) => Promise<unknown>; // each model's own update input
}): Promise<number> {
  if (!existing) {
    counts[`${kind}Created`]++;
    return (await create()).id;
  }
  if (await updateChanged({ existing, data, update: (changed) => update(existing.id, changed) })) counts[`${kind}Updated`]++;
  return existing.id;
}
