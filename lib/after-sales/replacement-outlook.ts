import { db } from "../db/client";
import { replacementSource } from "./buy-replacement";
import { refundedInFull, replacesOfLines } from "./replace-allowance";

// Issue 33.4: before an administrator clicks "replace", the claims page says
// what the order has given back already and what a replace would do: refused
// (the order is refunded in full, or the line used up its replacements), take
// our next card key, or buy one upstream, from which source and at what cost.
// Read without locks from the same rules the replace runs under
// (replace-allowance.ts, buy-replacement.ts), so it is a forecast: the
// resolution decides again under the order's lock.

export type ReplaceOutlook =
  | { kind: "refunded_in_full" }
  | { kind: "limit_reached" }
  /** A replacement purchase exists for the claim: its note (claim-view.ts) says how it stands. */
  | { kind: "purchase" }
  | { kind: "local_key" }
  /** `knownCostCents`: what the source last charged, else its price at the last import; null = unknown until bought. */
  | { kind: "upstream"; connectionName: string; knownCostCents: bigint | null; ceilingCents: bigint }
  /** No key in stock and no upstream source may sell one now: only a typed line replaces. */
  | { kind: "typed_line_only" };

export interface ClaimOutlook {
  amountCents: bigint;
  refundedCents: bigint;
  replacesUsed: number;
  replacesAllowed: number;
  replace: ReplaceOutlook;
}

/** The outlook of each open claim given, by claim id (the console's queue: at most a few hundred). */
export async function claimOutlooks(claims: { id: number; orderId: number; line: number }[]): Promise<Map<number, ClaimOutlook>> {
  const orderIds = [...new Set(claims.map((c) => c.orderId))];
  const [orders, used, purchases] = await Promise.all([
    db().order.findMany({
      where: { id: { in: orderIds } },
      select: {
        id: true,
        amountCents: true,
        refundedCents: true,
        items: {
          orderBy: { id: "asc" },
          take: 1,
          select: { skuId: true, sku: { select: { product: { select: { afterSalesReplaces: true } } } } },
        },
      },
    }),
    replacesOfLines(db(), orderIds),
    db().upstreamPurchase.findMany({ where: { claimId: { in: claims.map((c) => c.id) } }, select: { claimId: true } }),
  ]);
  const byId = new Map(orders.map((o) => [o.id, o]));
  const bought = new Set(purchases.map((p) => p.claimId));
  const out = new Map<number, ClaimOutlook>();
  for (const c of claims) {
    const o = byId.get(c.orderId);
    if (!o) continue;
    const item = o.items[0];
    const replacesAllowed = item?.sku.product.afterSalesReplaces ?? 0;
    const replacesUsed = used.get(`${c.orderId}:${c.line}`) ?? 0;
    const base = { amountCents: o.amountCents, refundedCents: o.refundedCents, replacesUsed, replacesAllowed };
    out.set(c.id, { ...base, replace: await outlookOf(o, item?.skuId ?? 0, replacesUsed >= replacesAllowed, bought.has(c.id)) });
  }
  return out;
}

async function outlookOf(
  order: { id: number; amountCents: bigint; refundedCents: bigint },
  skuId: number,
  limitReached: boolean,
  bought: boolean,
): Promise<ReplaceOutlook> {
  if (refundedInFull(order)) return { kind: "refunded_in_full" };
  if (limitReached) return { kind: "limit_reached" };
  if (bought) return { kind: "purchase" };
  const { next, localFirst, ceilingCents } = await replacementSource(db(), { id: order.id, skuId });
  if (localFirst) {
    const key = await db().keyStock.findFirst({ where: { skuId }, select: { keyId: true } });
    if (key) return { kind: "local_key" };
  }
  if (!next.ok || ceilingCents === null) return { kind: "typed_line_only" };
  return {
    kind: "upstream",
    connectionName: next.source.connectionName ?? `connection #${next.source.connectionId}`,
    knownCostCents: next.source.knownCostCents,
    ceilingCents,
  };
}
