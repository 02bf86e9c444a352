import type { Profile } from "../protocol/profiles";
import { appError } from "../errors";

/**
 * Parses a request body that must be a JSON object (D17).
 * Profile P: unparseable or a duplicated top-level key → 400 invalid_json;
 * parseable but not an object → 400 bad_request.
 * Profile U: unparseable or not an object → 400 bad_request; duplicates are
 * not checked (JSON.parse keeps the last one).
 */
export function parseJsonObject(text: string, profile: Profile): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw profile === "P"
      ? appError("invalid_json", "request body is not valid JSON")
      : appError("bad_request", "request body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw appError("bad_request", "request body must be a JSON object");
  }
  if (profile === "P") {
    const dup = firstDuplicateTopLevelKey(text);
    // The key is a field name chosen by the client, not a value: safe to name (D17).
    if (dup !== undefined) throw appError("invalid_json", `duplicated top-level field ${JSON.stringify(dup.slice(0, 64))}`);
  }
  return value as Record<string, unknown>;
}

/**
 * Scans text that JSON.parse already accepted as an object and returns the
 * first top-level key that occurs twice (compared after unescaping, so
 * "a" and "\u0061" are the same key).
 */
export function firstDuplicateTopLevelKey(text: string): string | undefined {
  const seen = new Set<string>();
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (seen.has(key)) return key;
        seen.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === "{" || c === "[") {
      depth++;
      expectKey = depth === 1;
    } else if (c === "}" || c === "]") {
      depth--;
    } else if (c === "," && depth === 1) {
      expectKey = true;
    }
  }
  return undefined;
}
