import { db } from "../db/client";
import { appError } from "../errors";
import { writeAuditLog } from "../audit/write-audit-log";
import type { Actor } from "../audit/actor";
import { formatAmount } from "../protocol/amount";

/**
 * Issue 22.1: sets the most an upstream may charge per unit of one SKU
 * mapped to it before an order is held for review (run-purchase.ts,
 * check-upstream-delivery.ts). The default (null) is the unit price the buyer
 * paid: never a loss. A higher ceiling is an administrator's decision to buy
 * at a loss, so it is audited with the change; an order already in review
 * for its cost is delivered by the review queue's "check the upstream again".
 * Callers check the input with UpstreamMaxCostSchema (connection-input.ts).
 */
export async function setUpstreamMaxCost(input: { skuId: number; maxCostCents: bigint | null; actor: Actor }) {
  const { skuId, maxCostCents: maxCost } = input;
  if (maxCost !== null && maxCost < 0n) throw appError("bad_request", "max cost must be at least 0.00");
  return db().$transaction(async (tx) => {
    const sku = await tx.sku.findUnique({ where: { id: skuId }, select: { id: true, upstreamSkuId: true, upstreamMaxCostCents: true } });
    if (!sku || sku.upstreamSkuId === null) throw appError("not_found", `SKU ${skuId} is not mapped to an upstream`);
    await tx.sku.update({ where: { id: sku.id }, data: { upstreamMaxCostCents: maxCost } });
    const show = (c: bigint | null) => (c === null ? null : formatAmount(c));
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "upstream.max_cost",
      targetType: "sku",
      targetId: String(sku.id),
      details: { previous: show(sku.upstreamMaxCostCents), maxCost: show(maxCost) },
    });
    return { skuId: sku.id, maxCost: show(maxCost) };
  });
}
