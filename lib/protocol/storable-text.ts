// Issue 8.2: PostgreSQL cannot store U+0000 in text, nor \u0000 or an unpaired
// surrogate escape in jsonb, and a lone surrogate turned into UTF-8 silently
// becomes U+FFFD (so a stored downstream_order_no would no longer equal the
// one sent). Every request field is therefore checked once, after validation,
// by the HTTP edge: such text is a 400 bad_request naming the field.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when PostgreSQL can store the string as text and inside jsonb unchanged. */
export function isStorableText(s: string): boolean {
  return !s.includes("\u0000") && !LONE_SURROGATE.test(s);
}

export interface UnstorableText {
  /** Path of the field, e.g. ["manual_form_data", "uid"]. */
  path: string[];
  /** True when a field name (an object key) is at fault rather than a value. */
  inKey: boolean;
}

/** The first string (value or object key) in a validated value that PostgreSQL cannot store, depth-first. */
export function findUnstorableText(value: unknown, path: string[] = [], depth = 0): UnstorableText | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : { path, inKey: false };
  // Bodies are at most 1 MiB and JSON; the depth bound only keeps the walk's stack small.
  if (value === null || typeof value !== "object" || depth > 64) return undefined;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, v] of entries) {
    if (!isStorableText(key)) return { path, inKey: true };
    const found = findUnstorableText(v, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}
