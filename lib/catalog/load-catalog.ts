import { catalogDb } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import type { DeliveryFormat, FulfillmentType } from "../generated/prisma/enums";
import { toLanguageText, type LanguageText } from "../protocol/language";
import { MICROS } from "./stamp-catalog";

// What the catalogue endpoints serve, read in ONE repeatable-read snapshot
// together with the catalogue clock (lib/catalog/stamp-catalog.ts): either
// everything, or only the products stamped after a given clock (issue 13.2:
// a refresh costs what changed, not what exists). Card-key stock comes from
// "SkuStamp"."availableKeys", kept by the change journal, so no refresh
// counts keys.

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
}

const EPOCH_PLUS = (micros: number) => Prisma.sql`('1970-01-01'::timestamp + ${micros}::bigint * interval '1 microsecond')`;

export async function loadCatalog(since: number | null = null): Promise<CatalogLoad> {
  return catalogDb().$transaction(
    async (tx) => {
      const [{ clock }] = await tx.$queryRaw<{ clock: bigint }[]>`SELECT ${MICROS(Prisma.sql`"stamp"`)} AS clock FROM "CatalogClock" WHERE "id" = 1`;
      const stamps = await tx.$queryRaw<{ productId: number; stamp: bigint }[]>`
        SELECT "productId", ${MICROS(Prisma.sql`"updatedAt"`)} AS stamp FROM "ProductStamp"
        ${since === null ? Prisma.empty : Prisma.sql`WHERE "updatedAt" > ${EPOCH_PLUS(since)}`}`;
      const ids = stamps.map((s) => s.productId);
      const [products, skuStamps, levelPrices, categories, settings, priced] = await Promise.all([
        ids.length ? tx.product.findMany({ where: since === null ? {} : { id: { in: ids } }, include: { skus: { where: { deletedAt: null }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] } }, orderBy: { id: "asc" } }) : [],
        tx.$queryRaw<{ skuId: number; stamp: bigint; availableKeys: number }[]>`
          SELECT "skuId", ${MICROS(Prisma.sql`"updatedAt"`)} AS stamp, "availableKeys" FROM "SkuStamp" WHERE "productId" = ANY (${ids}::int[])`,
        tx.$queryRaw<{ skuId: number; levelId: number; priceCents: bigint }[]>`
          SELECT lp."skuId", lp."levelId", lp."priceCents" FROM "SkuLevelPrice" lp JOIN "Sku" s ON s."id" = lp."skuId" WHERE s."productId" = ANY (${ids}::int[])`,
        tx.category.findMany({ orderBy: [{ sortOrder: "asc" }, { id: "asc" }] }),
        tx.siteSettings.findUniqueOrThrow({ where: { id: 1 }, select: { publicBaseUrl: true, imageExposure: true } }),
        tx.$queryRaw<{ levelId: number }[]>`SELECT DISTINCT "levelId" FROM "SkuLevelPrice"`,
      ]);
      const stampOf = new Map(stamps.map((s) => [s.productId, Number(s.stamp)]));
      const skuStampOf = new Map(skuStamps.map((s) => [s.skuId, s]));
      const pricesOf = new Map<number, Map<number, bigint>>();
      for (const lp of levelPrices) {
        if (!pricesOf.has(lp.skuId)) pricesOf.set(lp.skuId, new Map());
        pricesOf.get(lp.skuId)!.set(lp.levelId, lp.priceCents);
      }
      const live = new Map(categories.filter((c) => c.deletedAt === null).map((c) => [c.id, c]));
      return {
        clock: Number(clock),
        categories: [...live.values()].map((c) => ({ id: c.id, parentId: c.parentId, slug: c.slug, name: toLanguageText(c.name), sortOrder: c.sortOrder })),
        settings,
        pricedLevels: priced.map((r) => r.levelId),
        products: products
          .filter((p) => stampOf.has(p.id)) // created after the stamps were read: the next refresh has it
          .map((p) => {
            const updatedAt = stampOf.get(p.id)!;
            return {
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
              listed: p.deletedAt === null && live.has(p.categoryId),
              categorySort: live.get(p.categoryId)?.sortOrder ?? 0,
              updatedAt,
              skus: p.skus.map((s) => {
                const st = skuStampOf.get(s.id);
                return {
                  id: s.id,
                  skuCode: s.skuCode,
                  specValues: isObject(s.specValues) ? s.specValues : {},
                  priceCents: s.priceCents,
                  levelPrices: pricesOf.get(s.id) ?? new Map(),
                  isActive: s.isActive,
                  stock: p.fulfillmentType === "auto" ? (st?.availableKeys ?? 0) : s.stockQuantity,
                  updatedAt: st && Number(st.stamp) > 0 ? Number(st.stamp) : updatedAt,
                };
              }),
            };
          }),
      };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: 120_000, maxWait: 30_000 },
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Section 2.3: always an object with a `fields` array (empty when the product has no form). */
function formSchemaOf(v: unknown): { fields: unknown[] } {
  return isObject(v) && Array.isArray(v.fields) ? { ...v, fields: v.fields } : { fields: [] };
}
