import type { Tx } from "../db/tx";
import { inTx } from "../db/sql-rows";
import type { CatalogFile } from "./catalog-file-schema";

// Issue 28.3 (decision 0047): the products and SKUs a catalogue import
// creates, a page at a time, in ONE INSERT per page and table. A Prisma
// `create` per row was a round trip per row: 30,000 for a first import of
// 10,000 products (20,000 SKUs), about half of its 43.6 s. Prisma's
// `createManyAndReturn` sends one statement too, but its query engine held
// hundreds of MB per 500-row page and the CLI ran out of its 192 MB heap.
// Here the page goes as one JSON parameter, expanded by jsonb_to_recordset;
// the row triggers (catalogue change journal) fire per row as for any insert.

export interface NewProduct {
  slug: string;
  categoryId: number;
  title: unknown;
  description: unknown;
  content: unknown;
  fulfillmentType: string;
  deliveryFormat: string;
  deliveryDelimiter: string;
  manualFormSchema: unknown;
  logo: string;
  images: string[];
  priceCents: bigint;
  originalPriceCents: bigint;
  isActive: boolean;
}

export interface NewSku {
  skuCode: string;
  productId: number;
  specValues: unknown;
  priceCents: bigint;
  isActive: boolean;
  sortOrder: number;
  /** Absent for an auto SKU (its stock is its card keys, D13): stored as null, as Prisma left it. */
  stockQuantity?: number | null;
}

/** A page's JSON with bigints as strings (cast back to bigint in SQL). */
const pageJson = (rows: object[]) => JSON.stringify(rows, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

/** Inserts the products; returns slug → id. "updatedAt" is the transaction's time, as "createdAt"'s default. */
export async function createProducts(tx: Tx, rows: NewProduct[]): Promise<Map<string, number>> {
  if (!rows.length) return new Map();
  const made = await inTx(tx)(
    `INSERT INTO "Product" ("slug", "categoryId", "title", "description", "content", "fulfillmentType", "deliveryFormat",
       "deliveryDelimiter", "manualFormSchema", "logo", "images", "priceCents", "originalPriceCents", "isActive", "updatedAt")
     SELECT r."slug", r."categoryId", r."title", r."description", r."content", r."fulfillmentType"::"FulfillmentType",
       r."deliveryFormat"::"DeliveryFormat", r."deliveryDelimiter", r."manualFormSchema", r."logo",
       ARRAY(SELECT jsonb_array_elements_text(r."images")), r."priceCents"::bigint, r."originalPriceCents"::bigint, r."isActive", now()
     FROM jsonb_to_recordset($1::jsonb) AS r("slug" text, "categoryId" int, "title" jsonb, "description" jsonb,
       "content" jsonb, "fulfillmentType" text, "deliveryFormat" text, "deliveryDelimiter" text, "manualFormSchema" jsonb,
       "logo" text, "images" jsonb, "priceCents" text, "originalPriceCents" text, "isActive" boolean)
     RETURNING "id", "slug"`,
    [pageJson(rows)],
  );
  return new Map(made.map((r) => [String(r.slug), Number(r.id)]));
}

/** Inserts the SKUs; returns sku_code → id. */
export async function createSkus(tx: Tx, rows: NewSku[]): Promise<Map<string, number>> {
  if (!rows.length) return new Map();
  const made = await inTx(tx)(
    `INSERT INTO "Sku" ("skuCode", "productId", "specValues", "priceCents", "isActive", "sortOrder", "stockQuantity", "updatedAt")
     SELECT r."skuCode", r."productId", r."specValues", r."priceCents"::bigint, r."isActive", r."sortOrder", r."stockQuantity", now()
     FROM jsonb_to_recordset($1::jsonb) AS r("skuCode" text, "productId" int, "specValues" jsonb, "priceCents" text,
       "isActive" boolean, "sortOrder" int, "stockQuantity" int)
     RETURNING "id", "skuCode"`,
    [pageJson(rows)],
  );
  return new Map(made.map((r) => [String(r.skuCode), Number(r.id)]));
}

/** A file product's columns, as created or compared with the stored row (import-catalog.ts). */
export function productData(p: CatalogFile["products"][number], categoryIds: Map<string, number>) {
  return {
    categoryId: categoryIds.get(p.category)!,
    title: p.title,
    description: p.description,
    content: p.content,
    fulfillmentType: p.fulfillment_type,
    deliveryFormat: p.delivery_format,
    deliveryDelimiter: p.delivery_delimiter,
    // Through JSON: drops undefined optional keys, so stored and compared values agree.
    manualFormSchema: JSON.parse(JSON.stringify(p.manual_form_schema)) as object,
    logo: p.logo,
    images: p.images,
    priceCents: p.price_amount,
    originalPriceCents: p.original_price ?? p.price_amount,
    isActive: p.is_active,
    deletedAt: null,
  };
}

/** A file SKU's columns, likewise. */
export function skuData(
  p: CatalogFile["products"][number],
  s: CatalogFile["products"][number]["skus"][number],
  index: number,
  productId: number,
) {
  return {
    productId,
    specValues: s.spec_values,
    priceCents: s.price_amount ?? p.price_amount,
    isActive: s.is_active,
    sortOrder: index,
    deletedAt: null,
    // An auto SKU's stock is its card keys (D13): the number is left alone.
    ...(p.fulfillment_type === "auto" ? {} : { stockQuantity: s.stock_quantity }),
  };
}
