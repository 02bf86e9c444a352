import type { z } from "zod";
import { UpstreamProductSchema, type UpstreamProduct } from "./upstream-client";

/** A product of an upstream's catalogue that the import left out, and why (our words, never the upstream's). */
export interface SkippedUpstreamProduct {
  /** null when the entry carries no usable id. */
  upstreamProductId: number | null;
  reason: string;
}

export type ParsedUpstreamProduct = { ok: true; product: UpstreamProduct } | { ok: false; skipped: SkippedUpstreamProduct };

/**
 * Issue 8.3: one catalogue entry, checked on its own, so that a malformed or
 * negatively priced product is skipped with a reason while the rest of the
 * import goes on. The reason names the field by our schema's path and says
 * what is wrong in our own words; no value from the upstream is echoed.
 */
export function parseUpstreamProduct(raw: unknown): ParsedUpstreamProduct {
  const parsed = UpstreamProductSchema.safeParse(raw);
  if (parsed.success) return { ok: true, product: parsed.data };
  return { ok: false, skipped: { upstreamProductId: idOf(raw), reason: reasonOf(parsed.error.issues) } };
}

/**
 * Every entry of a catalogue: the products to import and the ones skipped.
 * Besides a malformed entry, one that would collide with another once stored
 * (the same product id, slug or SKU id twice) is skipped rather than failing
 * the whole import on a unique index; the first one stays.
 */
export function parseUpstreamProducts(entries: unknown[]): { products: UpstreamProduct[]; skipped: SkippedUpstreamProduct[] } {
  const products: UpstreamProduct[] = [];
  const skipped: SkippedUpstreamProduct[] = [];
  const ids = new Set<number>();
  const slugs = new Set<string>();
  const skuIds = new Set<number>();
  for (const entry of entries) {
    const p = parseUpstreamProduct(entry);
    if (!p.ok) {
      skipped.push(p.skipped);
      continue;
    }
    const { id, slug, skus } = p.product;
    const clash = ids.has(id)
      ? "id: listed more than once"
      : slugs.has(slug)
        ? "slug: used by another product"
        : skus.some((s, i) => skuIds.has(s.id) || skus.findIndex((o) => o.id === s.id) !== i)
          ? "skus: a SKU id is used more than once"
          : null;
    if (clash) {
      skipped.push({ upstreamProductId: id, reason: clash });
      continue;
    }
    ids.add(id);
    slugs.add(slug);
    for (const s of skus) skuIds.add(s.id);
    products.push(p.product);
  }
  return { products, skipped };
}

function idOf(raw: unknown): number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : null;
}

// Our schema's own custom messages (e.g. "priced below zero") are ours to show.
const OWN_WORDS: Partial<Record<string, string>> = {
  invalid_type: "missing or of the wrong type",
  invalid_format: "malformed",
  too_big: "too large",
  too_small: "too small",
  invalid_value: "not an accepted value",
  invalid_union: "malformed",
};

function reasonOf(issues: z.core.$ZodIssue[]): string {
  const first = issues.find((i) => i.code === "custom") ?? issues[0];
  if (!first) return "malformed";
  const what = first.code === "custom" ? first.message : (OWN_WORDS[first.code] ?? "malformed");
  return first.path.length ? `${pathOf(first.path)}: ${what}` : what;
}

/** ["skus", 0, "price_amount"] → "skus[0].price_amount". Keys come from our schema, indexes are numbers. */
function pathOf(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");
}
