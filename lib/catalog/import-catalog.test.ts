import { SYSTEM_ACTOR } from "../audit/actor";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/test-database";
import { db } from "../db/client";
import { importCatalog } from "./import-catalog";
import { readCatalogFile, validateCatalogFile } from "./validate-catalog-file";

// Issue 2: re-importing a catalogue file changes nothing; a bad file is
// rejected whole, naming the field, and writes nothing.

// Raw file input (before validation): the fields these tests change are
// declared, the rest is whatever the file says.
interface RawSku {
  sku_code: string;
  price_amount?: string;
  stock_quantity?: number | null;
  card_keys?: string[];
  [field: string]: unknown;
}
interface RawProduct {
  slug: string;
  title: { "zh-CN": string; en: string };
  skus: RawSku[];
  [field: string]: unknown;
}
interface RawFile {
  categories: { slug: string; parent?: string | null; [field: string]: unknown }[];
  products: RawProduct[];
}

const sample = (): RawFile => ({
  categories: [
    // The child comes first: the importer must order the tree itself.
    { slug: "imp-steam", name: { "zh-CN": "Steam", en: "Steam" }, sort_order: 2, parent: "imp-games" },
    { slug: "imp-games", name: { "zh-CN": "游戏", en: "Games" }, sort_order: 1, parent: null },
  ],
  products: [
    {
      slug: "imp-wallet",
      category: "imp-steam",
      title: { "zh-CN": "钱包", en: "Wallet" },
      description: { "zh-CN": "", en: "d" },
      content: { "zh-CN": "c", en: "c" },
      fulfillment_type: "auto",
      delivery_format: "account_password",
      delivery_delimiter: "----",
      price_amount: "10.00",
      original_price: "12.00",
      is_active: true,
      logo: "/uploads/logo.png",
      images: ["/uploads/a.png"],
      manual_form_schema: { fields: [] },
      skus: [
        {
          sku_code: "IMP-W10",
          spec_values: { name: "10" },
          price_amount: "10.00",
          is_active: true,
          stock_quantity: null,
          card_keys: ["u1----p1", "u2----p2", " u2----p2 "],
        },
        { sku_code: "IMP-W20", spec_values: { name: "20" }, price_amount: "19.50", is_active: true, stock_quantity: 5, card_keys: [] },
      ],
    },
    {
      slug: "imp-topup",
      category: "imp-games",
      title: { "zh-CN": "代充", en: "Top-up" },
      fulfillment_type: "manual",
      price_amount: "50.00",
      manual_form_schema: { fields: [{ key: "phone", type: "phone", label: { "zh-CN": "手机", en: "Phone" }, required: true }] },
      skus: [{ sku_code: "IMP-T50", stock_quantity: 7 }],
    },
  ],
});

async function snapshot() {
  const [categories, products, skus, keys, batches] = await Promise.all([
    db().category.findMany({ orderBy: { id: "asc" } }),
    db().product.findMany({ orderBy: { id: "asc" } }),
    db().sku.findMany({ orderBy: { id: "asc" } }),
    db().cardKey.findMany({ orderBy: { id: "asc" }, select: { id: true, skuId: true, fingerprint: true } }),
    db().cardKeyBatch.findMany({ orderBy: { id: "asc" } }),
  ]);
  return { categories, products, skus, keys, batches };
}

describe("catalog:import", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("imports a file, and re-importing the same file changes nothing", async () => {
    const first = await importCatalog(validateCatalogFile(sample()), { actor: SYSTEM_ACTOR });
    expect(first).toEqual({
      categoriesCreated: 2,
      categoriesUpdated: 0,
      productsCreated: 2,
      productsUpdated: 0,
      skusCreated: 3,
      skusUpdated: 0,
      cardKeysAdded: 2,
      cardKeysSkipped: 1,
      levelPricesChanged: 0,
    });
    const games = await db().category.findUniqueOrThrow({ where: { slug: "imp-games" } });
    const steam = await db().category.findUniqueOrThrow({ where: { slug: "imp-steam" } });
    expect(steam.parentId).toBe(games.id);
    const wallet = await db().product.findUniqueOrThrow({
      where: { slug: "imp-wallet" },
      include: { skus: { orderBy: { sortOrder: "asc" } } },
    });
    expect(wallet).toMatchObject({
      priceCents: 1000n,
      originalPriceCents: 1200n,
      deliveryFormat: "account_password",
      images: ["/uploads/a.png"],
    });
    // stock_quantity is ignored for auto products: their stock is the card keys (D13).
    expect(wallet.skus.map((s) => [s.skuCode, s.priceCents, s.stockQuantity])).toEqual([
      ["IMP-W10", 1000n, null],
      ["IMP-W20", 1950n, null],
    ]);
    expect(await db().sku.findUniqueOrThrow({ where: { skuCode: "IMP-T50" } })).toMatchObject({ priceCents: 5000n, stockQuantity: 7 });

    const before = await snapshot();
    const again = await importCatalog(validateCatalogFile(sample()), { actor: SYSTEM_ACTOR });
    expect(again).toEqual({
      categoriesCreated: 0,
      categoriesUpdated: 0,
      productsCreated: 0,
      productsUpdated: 0,
      skusCreated: 0,
      skusUpdated: 0,
      cardKeysAdded: 0,
      cardKeysSkipped: 3,
      levelPricesChanged: 0,
    });
    expect(await snapshot()).toEqual(before); // same rows, same updatedAt
  });

  it("updates only what changed and appends only new keys", async () => {
    const file = sample();
    file.products[0].title.en = "Wallet v2";
    file.products[0].skus[0].card_keys!.push("u3----p3");
    const before = await snapshot();
    const counts = await importCatalog(validateCatalogFile(file), { actor: SYSTEM_ACTOR });
    expect(counts).toMatchObject({ productsUpdated: 1, skusUpdated: 0, categoriesUpdated: 0, cardKeysAdded: 1, cardKeysSkipped: 3 });
    const after = await snapshot();
    const wallet = after.products.find((p) => p.slug === "imp-wallet")!;
    expect(wallet.title).toEqual({ "zh-CN": "钱包", en: "Wallet v2" });
    expect(wallet.updatedAt.getTime()).toBeGreaterThan(before.products.find((p) => p.slug === "imp-wallet")!.updatedAt.getTime());
    expect(after.products.find((p) => p.slug === "imp-topup")).toEqual(before.products.find((p) => p.slug === "imp-topup"));
    expect(after.batches.length).toBe(before.batches.length + 1);
  });

  it("rejects a bad file whole, naming the field, and writes nothing", async () => {
    const file = sample();
    file.products[0].slug = "imp-new-product"; // would be created if the file were accepted
    file.products[1].skus[0].price_amount = "12.345";
    expect(() => validateCatalogFile(file)).toThrow(/products\[1\]\.skus\[0\]\.price_amount: /);

    const before = await snapshot();
    const cases: [unknown, RegExp][] = [
      [
        {
          ...sample(),
          products: [{ ...sample().products[0], skus: [{ sku_code: "IMP-X", card_keys: ["ok----1", "SECRET-NO-DELIMITER"] }] }],
        },
        /products\[0\]\.skus\[0\]\.card_keys\[1\]: account_password key must be/,
      ],
      [
        { ...sample(), products: [{ ...sample().products[1], skus: [{ sku_code: "IMP-Y", card_keys: ["K"] }] }] },
        /products\[0\]\.skus\[0\]\.card_keys: only auto products hold card keys/,
      ],
      [
        { ...sample(), categories: [...sample().categories, { slug: "imp-games", name: { en: "dup" } }] },
        /categories\[2\]\.slug: duplicate slug/,
      ],
      [{ ...sample(), colour: "red" }, /Unrecognized key/],
    ];
    for (const [bad, message] of cases) {
      let error: { publicMessage?: string } | undefined;
      try {
        validateCatalogFile(bad);
      } catch (err) {
        error = err as { publicMessage?: string };
      }
      expect(error?.publicMessage).toMatch(message);
      expect(error?.publicMessage).not.toContain("SECRET-NO-DELIMITER");
    }
    expect(() => readCatalogFile('{\n  "categories": [],\n  "products": [,]\n}')).toThrow(/not valid JSON \(line 3, column 16\)/);
    expect(() => readCatalogFile('{"products": [{"card_keys": ["SECRET-NO-DELIMITER" "x"]}]}')).toThrow(/line 1, column 52\)$/);
    expect(await snapshot()).toEqual(before);
  });

  it("rejects unknown categories, cycles and a sku_code of another product inside the transaction, writing nothing", async () => {
    const before = await snapshot();
    const unknown = sample();
    unknown.products.push({
      ...unknown.products[1],
      slug: "imp-orphan",
      category: "no-such-category",
      skus: [{ sku_code: "IMP-O1", stock_quantity: 1 }],
    });
    await expect(importCatalog(validateCatalogFile(unknown), { actor: SYSTEM_ACTOR })).rejects.toThrow(
      /products\[2\]\.category: unknown category "no-such-category"/,
    );

    // imp-games (already in the database) under imp-steam, whose parent is imp-games.
    const cycle = sample();
    cycle.categories[1].parent = "imp-steam";
    cycle.products.push({ ...cycle.products[1], slug: "imp-other", skus: [{ sku_code: "IMP-NEW", stock_quantity: 1 }] });
    await expect(importCatalog(validateCatalogFile(cycle), { actor: SYSTEM_ACTOR })).rejects.toThrow(/would be its own ancestor/);

    const stolen = sample();
    stolen.products = [stolen.products[1]];
    stolen.products[0].skus.push({ sku_code: "IMP-W10", stock_quantity: 1 });
    await expect(importCatalog(validateCatalogFile(stolen), { actor: SYSTEM_ACTOR })).rejects.toThrow(
      /products\[0\]\.skus\[1\]\.sku_code: "IMP-W10" belongs to product "imp-wallet"/,
    );
    expect(await snapshot()).toEqual(before);
  });
});
