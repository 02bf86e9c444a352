import { isDeepStrictEqual } from "node:util";

// A re-import writes a row only when a value differs, so an unchanged catalogue changes nothing.

/** Updates only the fields whose values differ; returns whether anything changed. */
export async function updateChanged(existing: Record<string, unknown>, data: Record<string, unknown>, update: (changed: any) => Promise<unknown>): Promise<boolean> {
  const changed = Object.fromEntries(Object.entries(data).filter(([k, v]) => !isDeepStrictEqual(canonical(existing[k]), canonical(v))));
  if (!Object.keys(changed).length) return false;
  await update(changed);
  return true;
}

// jsonb comes back with its keys reordered: compare objects by content.
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object" && !(v instanceof Date)) {
    return Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, x]) => [k, canonical(x)]));
  }
  return v;
}
