import { SYSTEM_ACTOR } from "../audit/actor";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { makeLevel } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { importCatalog } from "./import-catalog";
import { validateCatalogFile } from "./validate-catalog-file";

// Issue 12.4, decision 0021: a SKU in the catalogue file may carry
// `level_prices: {"<level slug>": "9.50"}`. Present, it is that SKU's whole
// list of level prices; absent, they are left alone. An unknown level refuses
// the whole file, naming the SKU and the slug.

/** A raw catalogue file (before validation): the fields these tests change are declared. */
interface RawFile {
  categories: unknown[];
  products: { slug: string; skus: { sku_code: string; [field: string]: unknown }[]; [field: string]: unknown }[];
}

const file = (levelPrices?: Record<string, string>): RawFile => ({
  categories: [{ slug: "lp-cat", name: { "zh-CN": "分类", en: "Cat" } }],
  products: [
    {
      slug: "lp-prod",
      category: "lp-cat",
      title: { "zh-CN": "商品", en: "Product" },
      fulfillment_type: "manual",
      price_amount: "10.00",
      skus: [
        { sku_code: "LP-A", ...(levelPrices ? { level_prices: levelPrices } : {}) },
        { sku_code: "LP-B", price_amount: "20.00" },
      ],
    },
  ],
});

async function levelPrices(skuCode: string) {
  const rows = await db().skuLevelPrice.findMany({
    where: { sku: { skuCode } },
    include: { level: { select: { slug: true } } },
    orderBy: { levelId: "asc" },
  });
  return Object.fromEntries(rows.map((r) => [r.level.slug, r.priceCents]));
}

describe("catalog:import level_prices (issue 12.4)", () => {
  let gold: string;
  let silver: string;
  beforeAll(async () => {
    await useTestDatabase();
    gold = (await makeLevel()).slug;
    silver = (await makeLevel()).slug;
  });

  it("issue 12.4: sets level prices; the same file again changes nothing; a file without the key leaves them; a present key replaces the list", async () => {
    const first = await importCatalog(validateCatalogFile(file({ [gold]: "9.50", [silver]: "9.80" })), { actor: SYSTEM_ACTOR });
    expect(first.levelPricesChanged).toBe(2);
    expect(await levelPrices("LP-A")).toEqual({ [gold]: 950n, [silver]: 980n });
    expect(await levelPrices("LP-B")).toEqual({});

    const rows = await db().skuLevelPrice.findMany({ orderBy: { id: "asc" } });
    expect(
      (await importCatalog(validateCatalogFile(file({ [gold]: "9.50", [silver]: "9.80" })), { actor: SYSTEM_ACTOR })).levelPricesChanged,
    ).toBe(0);
    expect(await db().skuLevelPrice.findMany({ orderBy: { id: "asc" } })).toEqual(rows); // same rows, same updatedAt

    // Absent: untouched (a file written before levels existed keeps working).
    expect((await importCatalog(validateCatalogFile(file()), { actor: SYSTEM_ACTOR })).levelPricesChanged).toBe(0);
    expect(await levelPrices("LP-A")).toEqual({ [gold]: 950n, [silver]: 980n });

    // Present: the whole list; silver is left out, so it loses its price.
    expect((await importCatalog(validateCatalogFile(file({ [gold]: "9.00" })), { actor: SYSTEM_ACTOR })).levelPricesChanged).toBe(2);
    expect(await levelPrices("LP-A")).toEqual({ [gold]: 900n });

    // {} clears them all.
    expect((await importCatalog(validateCatalogFile(file({})), { actor: SYSTEM_ACTOR })).levelPricesChanged).toBe(1);
    expect(await levelPrices("LP-A")).toEqual({});
  });

  it("issue 12.4: an unknown level slug refuses the whole file naming the SKU and the slug, and nothing is written", async () => {
    const bad = file({ [gold]: "1.00", "no-such-level": "2.00" });
    bad.products[0].slug = "lp-would-be-new";
    bad.products[0].skus[0].sku_code = "LP-NEW";
    bad.products[0].skus[1].sku_code = "LP-NEW-B";
    const before = await db().skuLevelPrice.count();
    await expect(importCatalog(validateCatalogFile(bad), { actor: SYSTEM_ACTOR })).rejects.toThrow(
      /products\[0\]\.skus\[0\]\.level_prices: SKU "LP-NEW" names unknown member level "no-such-level"/,
    );
    expect(await db().product.count({ where: { slug: "lp-would-be-new" } })).toBe(0);
    expect(await db().skuLevelPrice.count()).toBe(before);
  });

  it("issue 12.4: level prices are checked like every price: amount strings, not below zero, slugs like other slugs", () => {
    expect(() => validateCatalogFile(file({ [gold]: "-1.00" }))).toThrow(
      /products\[0\]\.skus\[0\]\.level_prices\.lvl-[0-9a-f]+: must be a non-negative amount/,
    );
    expect(() => validateCatalogFile(file({ [gold]: "1.234" }))).toThrow(/level_prices\.lvl-[0-9a-f]+: must be a non-negative amount/);
    expect(() =>
      validateCatalogFile({ ...file(), products: [{ ...file().products[0], skus: [{ sku_code: "X", level_prices: { [gold]: 9.5 } }] }] }),
    ).toThrow(/level_prices/);
    expect(() => validateCatalogFile(file({ "Bad Slug": "1.00" }))).toThrow(/level_prices/);
  });
});
