import { getSettings } from "./get-settings";

type Settings = Awaited<ReturnType<typeof getSettings>>;

// The settings row is read on every supplier API request (rate-limit
// thresholds, image exposure, site name). A change takes effect within
// MAX_AGE_MS, the same staleness bound the catalogue has.
const MAX_AGE_MS = 1000;

let cached: { at: number; value: Promise<Settings> } | undefined;

/** The settings row, at most one second old. Concurrent callers share one query. */
export function getCachedSettings(): Promise<Settings> {
  const now = Date.now();
  if (!cached || now - cached.at >= MAX_AGE_MS) {
    const value = getSettings();
    cached = { at: now, value };
    // A failed read must not be served from the cache.
    value.catch(() => {
      if (cached?.value === value) cached = undefined;
    });
  }
  return cached.value;
}
