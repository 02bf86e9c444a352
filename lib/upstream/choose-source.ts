import type { SourcePolicy } from "../generated/prisma/enums";
import type { SkuSourceView } from "./load-sku-sources";

export type UpstreamSource = SkuSourceView & { kind: "upstream"; connectionId: number; upstreamSkuId: number };

/**
 * Issue 26.1/26.2: the upstream sources an order may try next, best first.
 * Pure, so that the policies are tested without a network.
 *
 * Left out: our own keys (taken in the order's own statement, before any
 * upstream; decision 0042), disabled sources and connections, sources this
 * order already tried (one hop per source: never bought twice), a
 * connection whose breaker is open, and a source whose last known cost is
 * above its ceiling (a definitive refusal we need not ask for).
 *
 * `priority`: list order. `cheapest`: the healthy sources with stock (known
 * stock null = unknown, worth a try) by last known cost (unknown last),
 * then the rest in list order: a stale "out of stock" never starves a source.
 * A half-open breaker is a candidate; the caller must win its one probe.
 */
export function chooseSources(input: {
  policy: SourcePolicy;
  sources: SkuSourceView[];
  /** "connectionId:upstreamSkuId" of the hops already made for this order. */
  tried: Set<string>;
  quantity: number;
  ceilingCents: (s: SkuSourceView) => bigint;
}): UpstreamSource[] {
  const usable = input.sources.filter(
    (s): s is UpstreamSource =>
      s.kind === "upstream" &&
      s.connectionId !== null &&
      s.upstreamSkuId !== null &&
      s.isEnabled &&
      s.breaker !== "open" &&
      !input.tried.has(sourceKey(s)) &&
      (s.knownCostCents === null || s.knownCostCents <= input.ceilingCents(s)),
  );
  if (input.policy === "priority") return usable;
  const inStock = (s: UpstreamSource) => s.knownStock === null || s.knownStock >= input.quantity;
  const cost = (s: UpstreamSource) => s.knownCostCents ?? null;
  const best = usable.filter(inStock).sort((a, b) => {
    const ca = cost(a);
    const cb = cost(b);
    if (ca === cb) return a.position - b.position;
    if (ca === null) return 1;
    if (cb === null) return -1;
    return ca < cb ? -1 : 1;
  });
  return [...best, ...usable.filter((s) => !inStock(s))];
}

export const sourceKey = (s: { connectionId: number | null; upstreamSkuId: number | null }) => `${s.connectionId}:${s.upstreamSkuId}`;

/** The most a source may charge per unit: its own ceiling, else the SKU's, else what the buyer paid (issue 22.1). */
export function ceilingOf(s: { maxCostCents: bigint | null }, skuMaxCostCents: bigint | null, unitPriceCents: bigint): bigint {
  return s.maxCostCents ?? skuMaxCostCents ?? unitPriceCents;
}

/**
 * Issue 26.2: the number a hop sends upstream. The first hop keeps the order's
 * own number (as before sources existed); hop n > 1 is "<order_no>-n". Stable
 * for every retry of that hop and different for every hop.
 */
export function hopOrderNo(orderNo: string, hop: number): string {
  if (!Number.isSafeInteger(hop) || hop < 1) throw new Error(`bad hop number ${hop}`);
  return hop === 1 ? orderNo : `${orderNo}-${hop}`;
}

/**
 * Issue 26.3: the number hop n of a claim's replacement purchase sends
 * upstream, "<order_no>-r<claimId>-<n>": never an order's own number nor
 * another claim's, stable for every retry of that hop.
 */
export function claimHopOrderNo(orderNo: string, claimId: number, hop: number): string {
  if (!Number.isSafeInteger(hop) || hop < 1) throw new Error(`bad hop number ${hop}`);
  return `${orderNo}-r${claimId}-${hop}`;
}

/** The number a purchase's hop sends: an order's (hopOrderNo) or a claim's replacement's (claimHopOrderNo). */
export function purchaseHopOrderNo(p: { claimId: number | null; order: { orderNo: string } }, hop: number): string {
  return p.claimId === null ? hopOrderNo(p.order.orderNo, hop) : claimHopOrderNo(p.order.orderNo, p.claimId, hop);
}
