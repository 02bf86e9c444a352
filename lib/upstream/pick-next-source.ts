import type { Tx } from "../db/tx";
import { ceilingOf, chooseSources, type UpstreamSource } from "./choose-source";
import { claimProbe } from "./circuit-breaker";
import { loadSkuSources } from "./load-sku-sources";

export type NextSource =
  | { ok: true; source: UpstreamSource }
  /** none: the SKU has no upstream source at all; exhausted: it has some, but none may take this order now. */
  | { ok: false; why: "none" | "exhausted" };

/**
 * Issue 26.2: where the next hop of an order goes, inside the transaction
 * that starts the hop. The SKU's policy orders the candidates
 * (choose-source.ts); a candidate behind a half-open breaker is taken only
 * if this hop wins the connection's one probe, else the next one is tried.
 */
export async function pickNextSource(
  tx: Tx,
  input: { skuId: number; quantity: number; unitPriceCents: bigint; tried: Set<string> },
): Promise<NextSource> {
  const list = await loadSkuSources(input.skuId, tx);
  if (!list || !list.sources.some((s) => s.kind === "upstream")) return { ok: false, why: "none" };
  const candidates = chooseSources({
    policy: list.policy, sources: list.sources, tried: input.tried, quantity: input.quantity,
    ceilingCents: (s) => ceilingOf(s, list.skuMaxCostCents, input.unitPriceCents),
  });
  for (const source of candidates) {
    if (source.breaker === "closed" || (await claimProbe(tx, source.connectionId))) return { ok: true, source };
  }
  return { ok: false, why: "exhausted" };
}
