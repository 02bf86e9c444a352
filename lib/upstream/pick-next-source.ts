import type { Tx } from "../db/tx";
import { ceilingOf, chooseSources, type UpstreamSource } from "./choose-source";
import { loadSkuSources, type SkuSources } from "./load-sku-sources";

export type NextSource =
  | { ok: true; source: UpstreamSource }
  /** none: the SKU has no upstream source at all; exhausted: it has some, but none may take this order now. */
  | { ok: false; why: "none" | "exhausted" };

/**
 * Issue 26.2: where the next hop of an order goes, inside the transaction
 * that starts the hop. The SKU's policy orders the candidates
 * (choose-source.ts). A connection whose breaker is half-open may be
 * chosen: the hop's job sends only if it wins the one probe (run-purchase.ts),
 * else it moves on unsent.
 */
export async function pickNextSource(
  tx: Tx,
  input: { skuId: number; quantity: number; unitPriceCents: bigint; tried: Set<string> },
): Promise<NextSource> {
  return pickFromSources(await loadSkuSources(input.skuId, tx), input);
}

/** The same choice from a list already loaded (a new order loads it before its transaction: create-order.ts). */
export function pickFromSources(
  list: SkuSources | null,
  input: { quantity: number; unitPriceCents: bigint; tried: Set<string> },
): NextSource {
  if (!list || !list.sources.some((s) => s.kind === "upstream")) return { ok: false, why: "none" };
  const candidates = chooseSources({
    policy: list.policy,
    sources: list.sources,
    tried: input.tried,
    quantity: input.quantity,
    ceilingCents: (s) => ceilingOf(s, list.skuMaxCostCents, input.unitPriceCents),
  });
  return candidates.length ? { ok: true, source: candidates[0] } : { ok: false, why: "exhausted" };
}
