import { catalogPool } from "../db/client";
import type { DeliveryFormat, FulfillmentType } from "../generated/prisma/enums";
import { toLanguageText, type LanguageText } from "../protocol/language";
import type { PriceTier } from "./buyer-prices";
import { microsOf } from "./stamp-catalog";

// What the catalogue endpoints serve, read in ONE statement (one snapshot)
// together with the catalogue clock (lib/catalog/stamp-catalog.ts): either
// everything, or only the products stamped after a given clock (issue 13.2:
// a refresh costs what changed, not what exists). Card-key stock comes from
// "SkuStamp"."availableKeys", kept by the change journal, so no refresh
// counts keys; sku_visible_stock (migration *_source_stock) adds the
// last known stock of the SKU's upstream sources (issue 26.1).

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
  /** Issue 12.4: member level id → that level's price. */
  levelPrices: Map<number, bigint>;
  /** Issue 38: buyer (user id) → its contract price; the quantity tiers, ascending. */
  contractPrices: Map<string, bigint>;
  tiers: PriceTier[];
  isActive: boolean;
  /** D13: null = unlimited. For `auto` products, the number of available card keys. */
  stock: number | null;
  /** Microseconds since the epoch (wire: milliseconds). */
  updatedAt: number;
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
  /** Not deleted, nor its category (lib/catalog/product-listed.ts, D11). */
  listed: boolean;
  /** The category's sort order (D10 list order), 0 for a missing category. */
  categorySort: number;
  /** Microseconds since the epoch: unique per product, increasing (issue 12.1). */
  updatedAt: number;
  skus: CatalogSku[];
}

export interface CatalogLoad {
  /** Every product stamped at or before this (µs) is included when it changed. */
  clock: number;
  /** Not deleted; ordered by sort_order, then id. */
  categories: CatalogCategory[];
  /** Changed since `since` (all when null), listed or not; by id. */
  products: CatalogProduct[];
  settings: { publicBaseUrl: string; imageExposure: boolean };
  /** Member levels that have at least one SKU price. */
  pricedLevels: number[];
  contractBuyers: string[]; // issue 38: buyers (user ids) with any contract price
}

// ONE statement (one snapshot, one round trip): the clock, the products
// stamped after `since` (all when null) with their SKUs, stamps, stock and
// level prices, every category, the image settings and the priced levels.
const LOAD_SQL = `
  SELECT json_build_object(
    'clock', ${microsOf('c."stamp"')},
    'settings', (SELECT json_build_object('publicBaseUrl', "publicBaseUrl", 'imageExposure', "imageExposure") FROM "SiteSettings" WHERE "id" = 1),
    'categories', (SELECT coalesce(json_agg(json_build_object('id', "id", 'parentId', "parentId", 'slug', "slug", 'name', "name",
        'sortOrder', "sortOrder", 'deleted', "deletedAt" IS NOT NULL) ORDER BY "sortOrder", "id"), '[]') FROM "Category"),
    'pricedLevels', (SELECT coalesce(json_agg(DISTINCT "levelId"), '[]') FROM "SkuLevelPrice"),
    'contractBuyers', (SELECT coalesce(json_agg(DISTINCT "userId"), '[]') FROM "ContractPrice"),
    'products', (SELECT coalesce(json_agg(json_build_object(
        'id', p."id", 'slug', p."slug", 'categoryId', p."categoryId", 'title', p."title", 'description', p."description",
        'content', p."content", 'fulfillmentType', p."fulfillmentType", 'deliveryFormat', p."deliveryFormat",
        'deliveryDelimiter', p."deliveryDelimiter", 'manualFormSchema', p."manualFormSchema", 'logo', p."logo", 'images', p."images",
        'priceCents', p."priceCents"::text, 'originalPriceCents', p."originalPriceCents"::text, 'isActive', p."isActive",
        'deleted', p."deletedAt" IS NOT NULL, 'stamp', ${microsOf('ps."updatedAt"')},
        'skus', (SELECT coalesce(json_agg(json_build_object(
            'id', s."id", 'skuCode', s."skuCode", 'specValues', s."specValues", 'priceCents', s."priceCents"::text,
            'isActive', s."isActive", 'stock', sku_visible_stock(s."id", p."fulfillmentType" = 'auto', st."availableKeys", s."stockQuantity"),
            'stamp', ${microsOf('st."updatedAt"')},
            'levelPrices', (SELECT coalesce(json_object_agg(lp."levelId", lp."priceCents"::text), '{}') FROM "SkuLevelPrice" lp WHERE lp."skuId" = s."id"),
            'contractPrices', (SELECT coalesce(json_object_agg(cp."userId", cp."priceCents"::text), '{}') FROM "ContractPrice" cp WHERE cp."skuId" = s."id"),
            'tiers', (SELECT coalesce(json_agg(json_build_array(pt."minQuantity", pt."priceCents"::text) ORDER BY pt."minQuantity"), '[]') FROM "SkuPriceTier" pt WHERE pt."skuId" = s."id")
          ) ORDER BY s."sortOrder", s."id"), '[]')
          FROM "Sku" s LEFT JOIN "SkuStamp" st ON st."skuId" = s."id" WHERE s."productId" = p."id" AND s."deletedAt" IS NULL)
      ) ORDER BY p."id"), '[]')
      FROM "ProductStamp" ps JOIN "Product" p ON p."id" = ps."productId"
      WHERE $1::bigint IS NULL OR ps."updatedAt" > '1970-01-01'::timestamp + $1::bigint * interval '1 microsecond')
  ) AS doc
  FROM "CatalogClock" c WHERE c."id" = 1`;

interface RawSku {
  id: number;
  skuCode: string;
  specValues: unknown;
  priceCents: string;
  isActive: boolean;
  stock: number | null;
  stamp: number | null;
  levelPrices: Record<string, string>;
  contractPrices: Record<string, string>;
  tiers: [number, string][];
}
interface RawProduct {
  id: number;
  slug: string;
  categoryId: number;
  title: unknown;
  description: unknown;
  content: unknown;
  fulfillmentType: FulfillmentType;
  deliveryFormat: DeliveryFormat;
  deliveryDelimiter: string;
  manualFormSchema: unknown;
  logo: string;
  images: string[];
  priceCents: string;
  originalPriceCents: string;
  isActive: boolean;
  deleted: boolean;
  stamp: number;
  skus: RawSku[];
}
interface RawLoad {
  clock: number;
  settings: CatalogLoad["settings"];
  categories: (CatalogCategory & { name: unknown; deleted: boolean })[];
  pricedLevels: number[];
  contractBuyers: string[];
  products: RawProduct[];
}

export async function loadCatalog(since: number | null = null): Promise<CatalogLoad> {
  const { rows } = await catalogPool().query<{ doc: RawLoad }>(LOAD_SQL, [since]);
  const raw = rows[0].doc;
  const live = new Map(raw.categories.filter((c) => !c.deleted).map((c) => [c.id, c]));
  return {
    clock: raw.clock,
    categories: [...live.values()].map((c) => ({
      id: c.id,
      parentId: c.parentId,
      slug: c.slug,
      name: toLanguageText(c.name),
      sortOrder: c.sortOrder,
    })),
    settings: raw.settings,
    pricedLevels: raw.pricedLevels,
    contractBuyers: raw.contractBuyers,
    // Issue 22.5: a product no longer listed enters the snapshot as a tombstone, so no answer can show more of it.
    products: raw.products.map((p) =>
      tombstoneUnlisted({
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
        priceCents: BigInt(p.priceCents),
        originalPriceCents: BigInt(p.originalPriceCents),
        isActive: p.isActive,
        listed: !p.deleted && live.has(p.categoryId),
        categorySort: live.get(p.categoryId)?.sortOrder ?? 0,
        updatedAt: p.stamp,
        skus: p.skus.map((s) => ({
          id: s.id,
          skuCode: s.skuCode,
          specValues: isObject(s.specValues) ? s.specValues : {},
          priceCents: BigInt(s.priceCents),
          levelPrices: new Map(Object.entries(s.levelPrices).map(([level, cents]) => [Number(level), BigInt(cents)])),
          contractPrices: new Map(Object.entries(s.contractPrices).map(([userId, cents]) => [userId, BigInt(cents)])),
          tiers: s.tiers.map(([minQuantity, cents]) => ({ minQuantity, priceCents: BigInt(cents) })),
          isActive: s.isActive,
          stock: s.stock,
          updatedAt: s.stamp !== null && s.stamp > 0 ? s.stamp : p.stamp,
        })),
      }),
    ),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Section 2.3: always an object with a `fields` array (empty when the product has no form). */
function formSchemaOf(v: unknown): { fields: unknown[] } {
  return isObject(v) && Array.isArray(v.fields) ? { ...v, fields: v.fields } : { fields: [] };
}

// Issue 22.5 (docs/decisions/0031-tombstones-and-cancelled-catalogue-events.md):
// a product that is no longer listed (it or its category deleted, D11) is
// shown to a downstream only as a tombstone: its id, is_active false, its
// updated_at and no SKUs; every other field the wire schema requires is there
// with an empty value ("", {"zh-CN":"","en":""}, "0.00", [], {fields: []}).
// Fields whose schema has no empty value keep the product's own (an enum, and
// the category id, which is at least 1). Its detail is 404 (D11); its title,
// content, prices, level prices and images leak through no other answer
// either. Applied once, where the catalogue snapshot and the catalogue events
// load the product, so every answer built from them is a tombstone already.

const EMPTY_TEXT = { "zh-CN": "", en: "" } as const;

/** The snapshot's form of a product that is not listed; a listed product is returned as it is. */
export function tombstoneUnlisted(p: CatalogProduct): CatalogProduct {
  if (p.listed) return p;
  return {
    id: p.id,
    slug: "",
    categoryId: p.categoryId,
    title: { ...EMPTY_TEXT },
    description: { ...EMPTY_TEXT },
    content: { ...EMPTY_TEXT },
    fulfillmentType: p.fulfillmentType,
    deliveryFormat: p.deliveryFormat,
    deliveryDelimiter: "",
    manualFormSchema: { fields: [] },
    logo: "",
    images: [],
    priceCents: 0n,
    originalPriceCents: 0n,
    isActive: false,
    listed: false,
    categorySort: p.categorySort,
    updatedAt: p.updatedAt,
    skus: [],
  };
}
