import { formatAmount } from "../protocol/amount";

/** A product the upstream import holds off sale, and why (issue 22.1; our words). */
export interface HeldUpstreamProduct {
  upstreamProductId: number;
  /** Our product, for the administrator's acceptance (accept-held-product.ts). */
  productId: number;
  reason: string;
}

/**
 * Issue 22.1: a price an upstream lists that we do not sell at without an
 * administrator's look: 0.00 (a mistake, or a lure), or a fall of more than
 * half since the last import (a misplaced decimal point). Prices are the
 * upstream's own, before our markup, so a change of markup never counts.
 * Returns the first such price as "<field>: <why>", else null.
 */
export function priceHoldReason(prices: { field: string; cents: bigint; previousCents: bigint | null | undefined }[]): string | null {
  for (const { field, cents, previousCents } of prices) {
    if (cents === 0n) return `${field}: 0.00`;
    // More than 50 % lower: cents < previous / 2, in integers.
    if (previousCents != null && cents * 2n < previousCents) {
      return `${field}: fell from ${formatAmount(previousCents)} to ${formatAmount(cents)} (more than 50 %)`;
    }
  }
  return null;
}
