import type { UpstreamPurchaseStatus } from "../generated/prisma/enums";

export interface HopRow {
  hop: number;
  connection: string;
  upstreamSkuId: number;
  /** The downstream_order_no this hop sent (issue 26.2). */
  number: string;
  status: UpstreamPurchaseStatus;
  /** Why the order moved on (our words), or the live hop's last error. */
  outcome: string | null;
  costCents: bigint | null;
}

type Purchase = {
  hop: number;
  downstreamOrderNo: string;
  upstreamSkuId: number;
  status: UpstreamPurchaseStatus;
  lastError: string | null;
  costCents: bigint | null;
  connection: { name: string };
  hops: {
    hop: number;
    downstreamOrderNo: string;
    upstreamSkuId: number;
    status: UpstreamPurchaseStatus;
    outcome: string;
    costCents: bigint | null;
    connection: { name: string };
  }[];
};

/** Prisma select for a purchase with its hops, as the order page and the review queue show them. */
export const purchaseWithHopsSelect = {
  hop: true,
  downstreamOrderNo: true,
  upstreamSkuId: true,
  status: true,
  lastError: true,
  costCents: true,
  connection: { select: { name: true } },
  hops: {
    orderBy: { hop: "asc" as const },
    select: {
      hop: true,
      downstreamOrderNo: true,
      upstreamSkuId: true,
      status: true,
      outcome: true,
      costCents: true,
      connection: { select: { name: true } },
    },
  },
};

/**
 * Issue 26.2: an order's hops for the console (the ones left behind, then the
 * live one) and its margin: what the buyer paid minus what the delivering
 * hop cost; null until an upstream delivered with a known cost. Issue 26.3
 * (decision 0059): the hops of replacements bought for the order's claims
 * follow (their numbers say "-r<claim>-n"), and what the delivered ones cost
 * comes off the margin too.
 */
export function purchaseHops(
  purchase: Purchase | null,
  amountCents: bigint,
  replacements: Purchase[] = [],
): { hops: HopRow[]; marginCents: bigint | null } {
  const extra = replacements.flatMap((r) => purchaseHops(r, 0n).hops);
  if (!purchase) return { hops: extra, marginCents: null };
  const row = (h: Purchase["hops"][number] | Purchase, outcome: string | null): HopRow => ({
    hop: h.hop,
    connection: h.connection.name,
    upstreamSkuId: h.upstreamSkuId,
    number: h.downstreamOrderNo,
    status: h.status,
    outcome,
    costCents: h.costCents,
  });
  const hops = [...purchase.hops.map((h) => row(h, h.outcome)), row(purchase, purchase.lastError), ...extra];
  const replaced = replacements.reduce((sum, r) => sum + (r.status === "delivered" ? (r.costCents ?? 0n) : 0n), 0n);
  const marginCents = purchase.status === "delivered" && purchase.costCents !== null ? amountCents - purchase.costCents - replaced : null;
  return { hops, marginCents };
}
