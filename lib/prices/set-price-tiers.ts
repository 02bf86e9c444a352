import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { PriceTiersTextSchema, SkuCodeSchema, tiersText } from "./price-input";

/** A SKU's quantity tiers as typed ("10:9.50,100:9.00"; "" clears them). */
export const SetPriceTiersSchema = z.object({ skuCode: SkuCodeSchema, tiers: PriceTiersTextSchema });
/** Parsed (the console parses its form with the schema, the CLI its options). */
export type SetPriceTiersInput = z.output<typeof SetPriceTiersSchema>;

/**
 * Replaces a SKU's quantity tiers, for every buyer (issue 38): from each
 * tier's quantity on, its unit price, when lower than the buyer's other
 * prices. One transaction with its audit row; the catalogue shows the tiers
 * within about a second.
 */
export async function setPriceTiers(input: SetPriceTiersInput, { actor }: { actor: Actor }) {
  return db().$transaction(async (tx) => {
    const sku = await tx.sku.findFirst({ where: { skuCode: input.skuCode, deletedAt: null }, select: { id: true, skuCode: true } });
    if (!sku) throw appError("not_found", `no SKU with code "${input.skuCode}"`);
    const before = await tx.skuPriceTier.findMany({ where: { skuId: sku.id }, orderBy: { minQuantity: "asc" } });
    await tx.skuPriceTier.deleteMany({ where: { skuId: sku.id } });
    if (input.tiers.length) await tx.skuPriceTier.createMany({ data: input.tiers.map((t) => ({ skuId: sku.id, ...t })) });
    const tiers = tiersText(input.tiers);
    await writeAuditLog(tx, {
      actor,
      action: tiers ? "price.tiers.set" : "price.tiers.clear",
      targetType: "sku",
      targetId: String(sku.id),
      details: { sku_code: sku.skuCode, from: tiersText(before), to: tiers },
    });
    return { skuCode: sku.skuCode, skuId: sku.id, tiers: input.tiers, previous: before };
  });
}
