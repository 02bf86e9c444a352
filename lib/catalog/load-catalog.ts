import { db } from "../db/client";
import type { DeliveryFormat, FulfillmentType } from "../generated/prisma/enums";
import { LISTED_PRODUCT_WHERE } from "./product-listed";
import { toLanguageText, type LanguageText } from "../protocol/language";

// The whole sellable catalogue in one read: categories, products, SKUs and
// stock. The supplier API serves its catalogue endpoints from a snapshot of
// this taken at most once a second (lib/supplier-api/catalog-cache.ts), so it
// is written as few queries as possible: three, plus one GROUP BY for card-key
// stock instead of a count per SKU.

export interface CatalogCategory {
  id: number;
  parentId: number | null;
  slug: string;
  name: LanguageText;
  sortOrder: number;
}

export interface CatalogSku {
  id: number;
  skuCode: string;
  specValues: Record<string, unknown>;
  priceCents: bigint;
  isActive: boolean;
  /** D13: null = unlimited. For `auto` products, the number of available card keys. */
  stock: number | null;
}

export interface CatalogProduct {
  id: number;
  slug: string;
  categoryId: number;
  title: LanguageText;
  description: LanguageText;
  content: LanguageText;
  fulfillmentType: FulfillmentType;
  deliveryFormat: DeliveryFormat;
  deliveryDelimiter: string;
  manualFormSchema: { fields: unknown[] };
  logo: string;
  images: string[];
  priceCents: bigint;
  originalPriceCents: bigint;
  isActive: boolean;
  skus: CatalogSku[];
}

export interface Catalog {
  /** Not deleted; ordered by sort_order, then id. */
  categories: CatalogCategory[];
  /** Not deleted, in a category that is not deleted; ordered by category sort_order, then id (D10). */
  products: CatalogProduct[];
}

export async function loadCatalog(): Promise<Catalog> {
  const [categories, products, keyCounts] = await Promise.all([
    db().category.findMany({ where: { deletedAt: null }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] }),
    db().product.findMany({
      where: LISTED_PRODUCT_WHERE,
      include: {
        category: { select: { sortOrder: true } },
        skus: { where: { deletedAt: null }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] },
      },
      orderBy: { id: "asc" },
    }),
    db().$queryRaw<{ skuId: number; n: bigint }[]>`
      SELECT "skuId", count(*) AS n FROM "CardKey" WHERE "status" = 'available' GROUP BY "skuId"`,
  ]);
  const available = new Map(keyCounts.map((r) => [r.skuId, Number(r.n)]));

  products.sort((a, b) => a.category.sortOrder - b.category.sortOrder || a.id - b.id);
  return {
    categories: categories.map((c) => ({ id: c.id, parentId: c.parentId, slug: c.slug, name: toLanguageText(c.name), sortOrder: c.sortOrder })),
    products: products.map((p) => ({
      id: p.id,
      slug: p.slug,
      categoryId: p.categoryId,
      title: toLanguageText(p.title),
      description: toLanguageText(p.description),
      content: toLanguageText(p.content),
      fulfillmentType: p.fulfillmentType,
      deliveryFormat: p.deliveryFormat,
      deliveryDelimiter: p.deliveryDelimiter,
      manualFormSchema: formSchemaOf(p.manualFormSchema),
      logo: p.logo,
      images: p.images,
      priceCents: p.priceCents,
      originalPriceCents: p.originalPriceCents,
      isActive: p.isActive,
      skus: p.skus.map((s) => ({
        id: s.id,
        skuCode: s.skuCode,
        specValues: isObject(s.specValues) ? s.specValues : {},
        priceCents: s.priceCents,
        isActive: s.isActive,
        stock: p.fulfillmentType === "auto" ? (available.get(s.id) ?? 0) : s.stockQuantity,
      })),
    })),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Section 2.3: always an object with a `fields` array (empty when the product has no form). */
function formSchemaOf(v: unknown): { fields: unknown[] } {
  return isObject(v) && Array.isArray(v.fields) ? { ...v, fields: v.fields } : { fields: [] };
}
