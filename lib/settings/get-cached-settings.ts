import type { Maybe } from "../maybe";
import { getSettings } from "./get-settings";

type Settings = Awaited<ReturnType<typeof getSettings>>;

// The settings row is read on every supplier API request (rate-limit
// thresholds, image exposure, site name). A change takes effect within
// MAX_AGE_MS, the same staleness bound the catalogue has.
const MAX_AGE_MS = 1000;

let cached: { at: number; value: Promise<Settings>; settled?: Settings } | undefined;

/** The settings row, at most one second old. Concurrent callers share one query. */
export function getCachedSettings(): Promise<Settings> {
  return current().value;
}

/** The same row, as a value when it is already here (issue 40.4: the supplier API's pipeline need not wait a turn for it). */
export function cachedSettingsNow(): Maybe<Settings> {
  const entry = current();
  return entry.settled ?? entry.value;
}

function current() {
  const now = Date.now();
  if (!cached || now - cached.at >= MAX_AGE_MS) {
    const value = getSettings();
    const entry: NonNullable<typeof cached> = { at: now, value };
    cached = entry;
    value.then(
      (settings) => (entry.settled = settings),
      // A failed read must not be served from the cache.
      () => {
        if (cached === entry) cached = undefined;
      },
    );
  }
  return cached;
}
