import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { loadSkuSources } from "../upstream/load-sku-sources";
import { pickFromSources } from "../upstream/pick-next-source";
import { ceilingOf } from "../upstream/choose-source";
import { startClaimPurchase } from "../upstream/queue-purchase";
import { takeCardKey, type DeliveredOrder } from "./order-lines";

// Issue 26.3 (decision 0059): a replace without a typed line takes its new
// key from the SKU's sources, as an order would: our own card key when the
// SKU's list has an enabled local source and a key is free, else ONE unit
// bought from the upstream sources in the list's policy order, by the same
// purchase rows, jobs and rules as an order's hops (run-purchase.ts,
// purchase-outcomes.ts). The purchase's delivery resolves the claim
// (resolveClaimInTx with its purchaseId); until then the claim stays open.

export type ReplacementPurchase = { purchaseId: number; connectionName: string | null };
/** The claim's replacement purchase, if one was ever started (one per claim). */
export type ClaimPurchase = { status: string } | null;

/**
 * Inside resolveClaimInTx, with the order and the claim locked: the new line
 * (a card key taken now), or the purchase started for it. A SKU with no
 * upstream source behaves as before sources existed: the SKU's next card key,
 * else 409 insufficient_stock. One purchase per claim (`bought`, read by
 * claimPurchase): a second replace while it runs is refused by
 * refuseWhileBuying, and after it failed for every source, or went to
 * review, a replace needs a typed line.
 */
export async function replacementFromSources(
  tx: Tx,
  order: DeliveredOrder,
  claimId: number,
  bought: ClaimPurchase,
): Promise<string | ReplacementPurchase> {
  const { next, localFirst } = await replacementSource(tx, order);
  const key = localFirst ? await takeCardKey(tx, order) : null;
  if (key) return key;
  if (!next.ok) {
    throw next.why === "none"
      ? appError("insufficient_stock", "no card key of this SKU is in stock: give the replacement line by hand")
      : appError(
          "insufficient_stock",
          "no card key of this SKU is in stock and no upstream source may sell one now (disabled, breaker open or above its maximum cost): give the replacement line by hand",
        );
  }
  if (bought) throw appError("claim_replacing", boughtBefore(bought.status));
  const purchaseId = await startClaimPurchase(tx, { claimId, orderNo: order.orderNo, source: next.source });
  return { purchaseId, connectionName: next.source.connectionName };
}

/**
 * Where a replace without a typed line would look, without taking anything:
 * our card keys first (`localFirst`) when the SKU has no upstream source a
 * purchase could use or its list has an enabled local source, else `next`.
 * Also what the console shows before a replace (replacement-outlook.ts):
 * the source and its ceiling (`ceilingCents`, as an order's hop of that SKU).
 */
export async function replacementSource(tx: Tx, order: { id: number; skuId: number }) {
  const [list, [item]] = await Promise.all([
    loadSkuSources(order.skuId, tx),
    tx.$queryRaw<
      { unitPriceCents: bigint }[]
    >`SELECT "unitPriceCents" FROM "OrderItem" WHERE "orderId" = ${order.id} ORDER BY "id" LIMIT 1`,
  ]);
  // The same ceiling an order's hop has: the source's, else the SKU's, else the unit price paid.
  const unitPriceCents = item?.unitPriceCents ?? 0n;
  const next = pickFromSources(list, { quantity: 1, unitPriceCents, tried: new Set() });
  const localFirst = next.ok ? list!.sources.some((s) => s.kind === "local" && s.isEnabled) : true;
  const ceilingCents = next.ok ? ceilingOf(next.source, list!.skuMaxCostCents, unitPriceCents) : null;
  return { next, localFirst, ceilingCents };
}

export async function claimPurchase(tx: Tx, claimId: number): Promise<ClaimPurchase> {
  return tx.upstreamPurchase.findUnique({ where: { claimId }, select: { status: true } });
}

/** Nothing resolves a claim while its replacement is being bought (the purchase will): 409 claim_replacing. */
export function refuseWhileBuying(bought: ClaimPurchase): void {
  if (bought && (bought.status === "pending" || bought.status === "placed")) throw appError("claim_replacing", boughtBefore(bought.status));
}

function boughtBefore(status: string): string {
  if (status === "pending" || status === "placed")
    return "a replacement is being bought from an upstream source; the claim resolves when it arrives";
  if (status === "unknown")
    return "the replacement purchase's outcome is unknown (in review): check with the upstream, then type the line, refund or reject";
  return "every upstream source refused the replacement: type the line, refund or reject";
}
