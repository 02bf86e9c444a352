import { isDeepStrictEqual } from "node:util";

// Both catalogue importers (import-catalog.ts and lib/upstream's
// import-upstream-catalog.ts) write a row only when a value differs, so
// re-importing an unchanged catalogue changes nothing (no updatedAt churn).
// This is the one comparison they share.

/**
 * Equal values, objects compared by content: jsonb columns come back from
 * PostgreSQL with their keys reordered, so key order must not count.
 */
export function sameContent(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(canonical(a), canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object" && !(v instanceof Date)) {
    return Object.fromEntries(
      Object.entries(v)
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([k, x]) => [k, canonical(x)]),
    );
  }
  return v;
}

/** The fields of `data` whose values differ from the stored row's. */
export function changedFields(existing: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => !sameContent(existing[k], v)));
}

/** Updates only the fields whose values differ; returns whether anything changed. */
export async function updateChanged({
  existing,
  data,
  update,
}: {
  existing: Record<string, unknown>;
  data: Record<string, unknown>;
  update: (changed: object) => Promise<unknown>; // each model's own update input
}): Promise<boolean> {
  const changed = changedFields(existing, data);
  if (!Object.keys(changed).length) return false;
  await update(changed);
  return true;
}
