import { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/tx";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { Amount, SKU_CODE, StockQuantity } from "./catalog-file-schema";
import { parseInput } from "../input/parse-input";
import { Int4IdSchema } from "../protocol/ids";
import { setSkuLevelPrices, SkuLevelPricesSchema } from "../levels/set-sku-level-prices";

// Creates or edits one SKU from the console, with the import's rules.
export const SaveSkuSchema = z.object({
  id: Int4IdSchema.optional(),
  productId: Int4IdSchema,
  skuCode: z.string().regex(SKU_CODE, "must be letters, digits, '.', '_' or '-' (at most 100)"),
  specValues: z.record(z.string().max(100), z.string().max(200)),
  price: Amount,
  isActive: z.boolean(),
  /** null = unlimited (D13). Ignored for `auto` products, whose stock is their card keys. */
  stockQuantity: StockQuantity,
  /** Issue 12.4: level slug → price, null/blank = none; levels not named are left alone. */
  levelPrices: SkuLevelPricesSchema.default({}),
});
export type SaveSkuInput = z.input<typeof SaveSkuSchema>;

export async function saveSku(raw: SaveSkuInput, { actor }: { actor: Actor }): Promise<{ id: number; created: boolean }> {
  const input = parseInput(SaveSkuSchema, raw);
  try {
    return await db().$transaction(async (tx) => {
      const product = await tx.product.findFirst({ where: { id: input.productId, deletedAt: null }, select: { fulfillmentType: true } });
      if (!product) throw appError("bad_request", "product not found");
      if (input.id) {
        const owner = await tx.sku.findUnique({ where: { id: input.id }, select: { productId: true } });
        if (!owner) throw appError("not_found", "SKU not found");
        if (owner.productId !== input.productId) throw appError("bad_request", "a SKU cannot move to another product");
      }
      const data = {
        productId: input.productId,
        skuCode: input.skuCode,
        specValues: input.specValues,
        priceCents: input.price,
        isActive: input.isActive,
        ...(product.fulfillmentType === "auto" ? {} : { stockQuantity: input.stockQuantity }),
      };
      const row = input.id ? await tx.sku.update({ where: { id: input.id }, data }) : await tx.sku.create({ data });
      const levelPrices = await setSkuLevelPrices(tx, { skuId: row.id, prices: input.levelPrices });
      await writeAuditLog(tx, {
        actor,
        action: `sku.${input.id ? "update" : "create"}`,
        targetType: "sku",
        targetId: String(row.id),
        details: {
          skuCode: row.skuCode,
          productId: row.productId,
          price: row.priceCents.toString(),
          isActive: row.isActive,
          stockQuantity: row.stockQuantity,
          ...(levelPrices.length ? { levelPrices: levelPrices as never } : {}),
        },
      });
      return { id: row.id, created: !input.id };
    });
  } catch (err) {
    throw isUniqueViolation(err) ? appError("conflict", `SKU code "${input.skuCode}" is already used`) : err;
  }
}
