// Issue 12.2/12.4: the prices a catalogue event reports are the ones the
// key's user sees. THE one place an event decides them, so the per-level
// product price rule (the lead's decision, issue 12.4) changes here only.

/** A SKU: its price for the user's member level when one is set, else its own. */
export function eventSkuPriceCents(sku: { priceCents: bigint; levelPriceCents: bigint | null }): bigint {
  return sku.levelPriceCents ?? sku.priceCents;
}

/** A product: its own price for now (the per-level product price rule is still open). */
export function eventProductPriceCents(product: { priceCents: bigint }): bigint {
  return product.priceCents;
}
