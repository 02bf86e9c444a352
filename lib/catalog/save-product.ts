import { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/tx";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { ManualFormSchemaSchema } from "../forms/form-schema";
import { Amount, DELIVERY_FORMATS, Delimiter, FULFILLMENT_TYPES, MAX_CONTENT_LENGTH, Slug, Text } from "./catalog-file-schema";
import { parseInput } from "../input/parse-input";
import { Int4IdSchema } from "../protocol/ids";
import { AfterSalesHoursSchema, AfterSalesReplacesSchema } from "../after-sales/set-after-sales-hours";

// Creates or edits one product from the console, with the catalogue import's
// field rules (catalog-file-schema.ts) and the shared manual form schema
// (lib/forms/form-schema.ts). Pictures are paths returned by save-upload.ts
// (or absolute URLs); D15 makes them absolute in API responses.
const ImagePath = z
  .string()
  .trim()
  .max(1000)
  .refine(
    (s) => s === "" || s.startsWith("/uploads/") || /^https?:\/\//.test(s),
    "must be an uploaded picture (/uploads/…) or an http(s) URL",
  );

export const SaveProductSchema = z.object({
  id: Int4IdSchema.optional(),
  slug: Slug,
  categoryId: Int4IdSchema,
  title: Text(200).refine((t) => t["zh-CN"].trim() !== "" || t.en.trim() !== "", "a title is needed in at least one language"),
  description: Text(2000),
  content: Text(MAX_CONTENT_LENGTH),
  fulfillmentType: z.enum(FULFILLMENT_TYPES),
  deliveryFormat: z.enum(DELIVERY_FORMATS),
  deliveryDelimiter: Delimiter,
  manualFormSchema: ManualFormSchemaSchema,
  price: Amount,
  originalPrice: Amount.optional(),
  isActive: z.boolean(),
  logo: ImagePath,
  images: z.array(ImagePath.refine((s) => s !== "", "must not be empty")).max(50),
  /** Issue 26.3: hours after delivery a line may be claimed (0 = none); left out, unchanged (a new product: 24). */
  afterSalesHours: AfterSalesHoursSchema.optional(),
  /** Issue 33.4: times one line may be replaced within the window; left out, unchanged (a new product: 1). */
  afterSalesReplaces: AfterSalesReplacesSchema.optional(),
});
export type SaveProductInput = z.input<typeof SaveProductSchema>;

export async function saveProduct(raw: SaveProductInput, { actor }: { actor: Actor }): Promise<{ id: number; created: boolean }> {
  const input = parseInput(SaveProductSchema, raw);
  const data = {
    slug: input.slug,
    categoryId: input.categoryId,
    title: input.title,
    description: input.description,
    content: input.content,
    fulfillmentType: input.fulfillmentType,
    deliveryFormat: input.deliveryFormat,
    deliveryDelimiter: input.deliveryDelimiter,
    // Through JSON: drops undefined optional keys, as the import stores it.
    manualFormSchema: JSON.parse(JSON.stringify(input.manualFormSchema)) as object,
    priceCents: input.price,
    originalPriceCents: input.originalPrice ?? input.price,
    isActive: input.isActive,
    logo: input.logo,
    images: input.images,
    ...(input.afterSalesHours === undefined ? {} : { afterSalesHours: input.afterSalesHours }),
    ...(input.afterSalesReplaces === undefined ? {} : { afterSalesReplaces: input.afterSalesReplaces }),
  };
  try {
    return await db().$transaction(async (tx) => {
      const category = await tx.category.findFirst({ where: { id: input.categoryId, deletedAt: null }, select: { id: true } });
      if (!category) throw appError("bad_request", "category not found");
      const row = input.id ? await tx.product.update({ where: { id: input.id }, data }) : await tx.product.create({ data });
      await writeAuditLog(tx, {
        actor,
        action: `product.${input.id ? "update" : "create"}`,
        targetType: "product",
        targetId: String(row.id),
        details: {
          slug: row.slug,
          categoryId: row.categoryId,
          fulfillmentType: row.fulfillmentType,
          isActive: row.isActive,
          afterSalesHours: row.afterSalesHours,
          afterSalesReplaces: row.afterSalesReplaces,
          formFields: input.manualFormSchema.fields.length,
        },
      });
      return { id: row.id, created: !input.id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw appError("conflict", `slug "${input.slug}" is already used by another product`);
    if ((err as { code?: string }).code === "P2025") throw appError("not_found", "product not found");
    throw err;
  }
}
