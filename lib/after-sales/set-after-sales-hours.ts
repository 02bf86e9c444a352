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

/**
 * Issue 33.4: how many times one delivered line may be replaced within the
 * window (replace-allowance.ts; default 1, 0 = refund or reject only). Each
 * replace is another key or another upstream purchase; at most 100, beyond
 * that is a typing slip. Same two places as the window.
 */
export const AfterSalesReplacesSchema = z
  .int("must be a whole number of replacements")
  .min(0, "must be 0 (refund only) or more")
  .max(100, "must be at most 100");

export const AfterSalesReplacesTextSchema = z
  .string()
  .trim()
  .regex(/^[0-9]{1,3}$/, "must be a whole number of replacements per line (0 = refund only)")
  .transform(Number)
  .pipe(AfterSalesReplacesSchema);

/**
 * Sets one product's window (CLI) and, when given, how often a line may be
 * replaced within it; audited. Claims already open are not touched; the
 * replace limit applies to the next resolution.
 */
export async function setAfterSalesHours(input: { productId: number; hours: number; replaces?: number; actor: Actor }) {
  const hours = AfterSalesHoursSchema.safeParse(input.hours);
  if (!hours.success) throw appError("bad_request", `after-sales hours ${hours.error.issues[0].message}`);
  const replaces = AfterSalesReplacesSchema.optional().safeParse(input.replaces);
  if (!replaces.success) throw appError("bad_request", `after-sales replaces ${replaces.error.issues[0].message}`);
  return db().$transaction(async (tx) => {
    const product = await tx.product.findFirst({
      where: { id: input.productId, deletedAt: null },
      select: { id: true, slug: true, afterSalesHours: true, afterSalesReplaces: true },
    });
    if (!product) throw appError("not_found", `product ${input.productId} not found`);
    const afterSalesReplaces = replaces.data ?? product.afterSalesReplaces;
    await tx.product.update({ where: { id: product.id }, data: { afterSalesHours: hours.data, afterSalesReplaces } });
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "product.after_sales",
      targetType: "product",
      targetId: String(product.id),
      details: {
        slug: product.slug,
        previous: product.afterSalesHours,
        hours: hours.data,
        previousReplaces: product.afterSalesReplaces,
        replaces: afterSalesReplaces,
      },
    });
    return { productId: product.id, slug: product.slug, afterSalesHours: hours.data, afterSalesReplaces };
  });
}
