import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { formatAmount, PositiveAmountInputSchema } from "../protocol/amount";
import { EmailSchema } from "../users/email";
import { SkuCodeSchema } from "./price-input";

/** A buyer's own price for one SKU (issue 38), or null to remove it. */
export const SetContractPriceSchema = z.object({
  email: EmailSchema,
  skuCode: SkuCodeSchema,
  price: PositiveAmountInputSchema.nullable(),
});
/** Parsed (the console parses its form with the schema, the CLI its options). */
export type SetContractPriceInput = z.output<typeof SetContractPriceSchema>;

/**
 * Sets or clears one buyer's contract price for one SKU. From the next order
 * on, place_order charges it when it is the lowest of the buyer's prices
 * (lib/catalog/buyer-prices.ts); the catalogue shows it to this buyer within
 * about a second (the row's trigger restamps the product). Audited with the
 * previous price, in the same transaction.
 */
export async function setContractPrice(input: SetContractPriceInput, { actor }: { actor: Actor }) {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email: input.email }, select: { id: true, email: true } });
    if (!user) throw appError("user_not_found", `no user with email ${input.email}`);
    const sku = await tx.sku.findFirst({ where: { skuCode: input.skuCode, deletedAt: null }, select: { id: true, skuCode: true } });
    if (!sku) throw appError("not_found", `no SKU with code "${input.skuCode}"`);
    const key = { userId_skuId: { userId: user.id, skuId: sku.id } };
    const before = await tx.contractPrice.findUnique({ where: key, select: { priceCents: true } });
    if (input.price === null) {
      if (before) await tx.contractPrice.delete({ where: key });
    } else {
      await tx.contractPrice.upsert({
        where: key,
        create: { userId: user.id, skuId: sku.id, priceCents: input.price },
        update: { priceCents: input.price },
      });
    }
    const previous = before ? formatAmount(before.priceCents) : null;
    const price = input.price === null ? null : formatAmount(input.price);
    await writeAuditLog(tx, {
      actor,
      action: price === null ? "price.contract.clear" : "price.contract.set",
      targetType: "user",
      targetId: user.id,
      details: { sku_code: sku.skuCode, from: previous, to: price },
    });
    return { email: user.email, skuCode: sku.skuCode, skuId: sku.id, price, previous };
  });
}
