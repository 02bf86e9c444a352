import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { evaluateSkuStock } from "./evaluate-sku-stock";

export const SkuThresholdSchema = z.strictObject({
  skuCode: z.string().trim().min(1, "must not be empty").max(200),
  /** null = back to the site-wide default (stock_low's number). */
  stock: z.union([z.null(), z.coerce.number().int("must be a whole number").min(0, "must be 0 or more").max(1_000_000_000)]),
});

/**
 * Issue 25 (CLI sku:threshold, console): a SKU's own low-stock threshold, audited.
 * Issue 33.8: its low-stock condition is judged again under the new number in
 * the same transaction (evaluate-sku-stock.ts), so the next crossing alerts.
 */
export async function setSkuThreshold(input: z.input<typeof SkuThresholdSchema>, { actor }: { actor: Actor }) {
  const parsed = SkuThresholdSchema.safeParse(input);
  if (!parsed.success) throw appError("bad_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const { skuCode, stock } = parsed.data;
  return db().$transaction(async (tx) => {
    const { count } = await tx.sku.updateMany({ where: { skuCode, deletedAt: null }, data: { alertStockThreshold: stock } });
    if (!count) throw appError("not_found", `no SKU with code ${skuCode}`);
    const sku = await tx.sku.findUniqueOrThrow({ where: { skuCode }, select: { id: true } });
    await writeAuditLog(tx, { actor, action: "alert.sku_threshold", targetType: "sku", targetId: String(sku.id), details: { stock } });
    const alert = await evaluateSkuStock(tx, sku.id, "threshold");
    return { sku_id: sku.id, sku_code: skuCode, stock_threshold: stock, alert };
  });
}
