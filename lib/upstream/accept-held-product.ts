import { db } from "../db/client";
import { appError } from "../errors";
import { writeAuditLog } from "../audit/write-audit-log";
import type { Actor } from "../audit/actor";

/**
 * Issue 22.1: an administrator accepts the price of a product the upstream
 * import held (a price of 0.00 or a fall of more than 50 %, price-hold.ts):
 * the hold is lifted and the product sells again as the upstream lists it
 * (upstreamIsActive), at the price already imported. The prices of that
 * import become the base of the next drop check, so the same price does not
 * hold it again. The change and its audit row commit together. A product that
 * is not held is refused (409), so a second click changes nothing.
 */
export async function acceptHeldProduct(input: { productId: number; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const [product] = await tx.$queryRaw<{ id: number; holdReason: string | null; upstreamIsActive: boolean | null }[]>`
      SELECT "id", "holdReason", "upstreamIsActive" FROM "Product" WHERE "id" = ${input.productId} AND "deletedAt" IS NULL FOR UPDATE`;
    if (!product) throw appError("not_found", `product ${input.productId} not found`);
    if (product.holdReason === null) throw appError("conflict", `product ${product.id} is not held; nothing to accept`);
    const isActive = product.upstreamIsActive ?? false;
    await tx.product.update({ where: { id: product.id }, data: { holdReason: null, isActive } });
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "upstream.accept_price",
      targetType: "product",
      targetId: String(product.id),
      details: { reason: product.holdReason, isActive },
    });
    return { productId: product.id, isActive };
  });
}
