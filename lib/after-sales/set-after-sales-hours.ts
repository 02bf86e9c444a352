import { z } from "zod";
import { db } from "../db/client";
import { appError } from "../errors";
import { writeAuditLog } from "../audit/write-audit-log";
import type { Actor } from "../audit/actor";

/**
 * Issue 26.3: a product's after-sales window, in whole hours after delivery
 * (open-claim.ts reads it when a claim opens; 0 = no after-sales). At most a
 * year: a longer window is a typing slip, not a policy. One rule for the
 * console's product form (save-product.ts) and `product:after-sales`.
 */
export const AfterSalesHoursSchema = z
  .int("must be a whole number of hours")
  .min(0, "must be 0 (no after-sales) or more")
  .max(8760, "must be at most 8760 (a year)");

/** The window as typed on the command line or in a form field: digits only. */
export const AfterSalesHoursTextSchema = z
  .string()
  .trim()
  .regex(/^[0-9]{1,5}$/, "must be a whole number of hours (0 = no after-sales)")
  .transform(Number)
  .pipe(AfterSalesHoursSchema);

/** Sets one product's window (CLI), audited; claims already open are not touched. */
export async function setAfterSalesHours(input: { productId: number; hours: number; actor: Actor }) {
  const hours = AfterSalesHoursSchema.safeParse(input.hours);
  if (!hours.success) throw appError("bad_request", `after-sales hours ${hours.error.issues[0].message}`);
  return db().$transaction(async (tx) => {
    const product = await tx.product.findFirst({
      where: { id: input.productId, deletedAt: null },
      select: { id: true, slug: true, afterSalesHours: true },
    });
    if (!product) throw appError("not_found", `product ${input.productId} not found`);
    await tx.product.update({ where: { id: product.id }, data: { afterSalesHours: hours.data } });
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "product.after_sales",
      targetType: "product",
      targetId: String(product.id),
      details: { slug: product.slug, previous: product.afterSalesHours, hours: hours.data },
    });
    return { productId: product.id, slug: product.slug, afterSalesHours: hours.data };
  });
}
