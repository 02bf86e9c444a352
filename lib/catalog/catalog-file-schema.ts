import { z } from "zod";
import { NonNegativeAmountInputSchema } from "../protocol/amount";
import { ManualFormSchemaSchema } from "../forms/form-schema";
import { Slug } from "../input/slug";
import { checkDelimiter, DEFAULT_DELIMITER, MAX_CARD_KEY_LENGTH } from "./delivery-format";

// The catalogue import file (`npm run cli -- catalog:import FILE`, issue 2).
// Strict objects: a misspelt field is an error, not silently ignored data.
// Amounts are strings with at most two decimals (D3), never JSON numbers.

// The slug and path rules live in lib/input (the member levels share them): re-exported for the catalogue's files.
export { SLUG, Slug } from "../input/slug";
export { formatPath } from "../input/parse-input";

// Exported: the console forms (save-category/product/sku.ts) share these rules.
export const SKU_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const Amount = NonNegativeAmountInputSchema;

/**
 * Longest product content per language, at every import (catalogue file,
 * console, upstream): content is parsed for D15 image stripping on every
 * catalogue snapshot while image exposure is off (issue 8.6).
 */
export const MAX_CONTENT_LENGTH = 100_000;

// A language object (D5): a key left out is stored as "".
export const Text = (max: number) =>
  z
    .strictObject({ "zh-CN": z.string().max(max).default(""), en: z.string().max(max).default("") })
    .transform((t) => ({ "zh-CN": t["zh-CN"], en: t.en }));

export const Delimiter = z.string().superRefine((d, ctx) => {
  const problem = checkDelimiter(d);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
export const FULFILLMENT_TYPES = ["auto", "manual", "upstream"] as const;
export const DELIVERY_FORMATS = ["text", "account_password", "card_password", "apple_account"] as const;
export const StockQuantity = z.int().min(0).max(1_000_000_000).nullable();

// Length only here; the format check needs the product's delivery format.
// Exported: a file read as a stream checks each SKU's keys on their own.
export const CardKeysSchema = z.array(z.string().max(MAX_CARD_KEY_LENGTH * 2)).max(100_000);

const SkuSchema = z.strictObject({
  sku_code: z.string().regex(SKU_CODE, "must be letters, digits, '.', '_' or '-' (at most 100)"),
  spec_values: z.record(z.string().max(100), z.string().max(200)).default({}),
  // Defaults to the product's price when left out.
  price_amount: Amount.optional(),
  is_active: z.boolean().default(true),
  stock_quantity: StockQuantity.default(null),
  // Issue 12.4 (decision 0021): member level slug → price. Present, it is the
  // SKU's whole list (a level left out loses its price; {} clears them all);
  // absent, the SKU's level prices are left as they are. The levels must
  // exist: checked against the database before anything is written.
  level_prices: z.record(Slug, Amount).optional(),
  card_keys: CardKeysSchema.default([]),
});

export const ProductSchema = z.strictObject({
  slug: Slug,
  category: Slug,
  title: Text(200),
  description: Text(2000).default({ "zh-CN": "", en: "" }),
  content: Text(MAX_CONTENT_LENGTH).default({ "zh-CN": "", en: "" }),
  fulfillment_type: z.enum(FULFILLMENT_TYPES),
  delivery_format: z.enum(DELIVERY_FORMATS).default("text"),
  delivery_delimiter: Delimiter.default(DEFAULT_DELIMITER),
  price_amount: Amount,
  // Defaults to price_amount.
  original_price: Amount.optional(),
  is_active: z.boolean().default(true),
  logo: z.string().max(1000).default(""),
  images: z.array(z.string().min(1).max(1000)).max(50).default([]),
  manual_form_schema: ManualFormSchemaSchema.default({ fields: [] }),
  skus: z.array(SkuSchema).min(1, "a product needs at least one SKU").max(500),
});

export const SortOrder = z.int().min(-1_000_000).max(1_000_000);

const CategorySchema = z.strictObject({
  slug: Slug,
  name: Text(200),
  sort_order: SortOrder.default(0),
  parent: Slug.nullable().default(null),
});

export const CatalogFileSchema = z.strictObject({
  categories: z.array(CategorySchema).max(10_000).default([]),
  products: z.array(ProductSchema).max(10_000).default([]),
});

export type CatalogFile = z.output<typeof CatalogFileSchema>;
export type CatalogFileProduct = CatalogFile["products"][number];
export type CatalogFileCategory = CatalogFile["categories"][number];
