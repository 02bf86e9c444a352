import RE2 from "re2";

// Issue 8.6: a form field's `regex` comes from an administrator or from an
// upstream's catalogue, and the value it is tested against from a buyer: both
// hostile. V8's backtracking engine takes exponential time on patterns like
// ^([a-z0-9]+)*$, and the one event loop that serves the API and runs the jobs
// would stall. RE2 matches in time linear in the value, whatever the pattern;
// every place a form pattern is compiled or tested goes through this file.
// RE2 has no lookarounds or backreferences: such a pattern is refused where a
// schema enters (catalogue file, console, upstream import).

/** Longest pattern source a schema may carry. */
export const MAX_PATTERN_LENGTH = 1000;
/** Longest text value (in UTF-16 units) a form field accepts; checked before any pattern runs. */
export const MAX_FORM_VALUE_LENGTH = 10_000;

// Compiled patterns by source. Bounded: schemas come from outside, so the set
// of sources is not ours to trust; the oldest entry goes first.
const cache = new Map<string, RE2>();
const CACHE_SIZE = 500;

/** Compiles a form pattern with RE2, or explains why it cannot be used. */
export function checkFormPattern(source: string): { ok: true; re: RE2 } | { ok: false; problem: string } {
  if (source.length > MAX_PATTERN_LENGTH) return { ok: false, problem: `regex must be at most ${MAX_PATTERN_LENGTH} characters` };
  const cached = cache.get(source);
  if (cached) return { ok: true, re: cached };
  let re: RE2;
  try {
    // "u": code points, as RE2 always works; the JS-side indices agree with it.
    re = new RE2(source, "u");
  } catch {
    return { ok: false, problem: "regex is not a valid regular expression (lookarounds and backreferences are not supported)" };
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(source, re);
  return { ok: true, re };
}

/**
 * Whether a value matches a form pattern. A pattern that does not compile
 * matches nothing: a stored schema that bypassed the entry checks fails closed.
 */
export function matchesFormPattern(source: string, value: string): boolean {
  if (value.length > MAX_FORM_VALUE_LENGTH) return false;
  const checked = checkFormPattern(source);
  return checked.ok && checked.re.test(value);
}
