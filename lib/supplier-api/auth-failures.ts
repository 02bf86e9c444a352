import { LRUCache } from "lru-cache";
import { env } from "../config/env";
import { appError } from "../errors";

// Issue 22.2, decision 0028: a client address that keeps failing
// authentication (random keys, a wrong secret) is refused with 429 for the
// rest of the minute before its next key is looked up, so a flood of unknown
// keys costs at most AUTH_FAILURES_PER_MINUTE database look-ups per address.
// Counted in this process: the cost bounded is this process's and its
// database pool's. Bounded too: at most MAX_ADDRESSES windows are kept.

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 10_000;
const windows = new LRUCache<string, { start: number; failures: number }>({ max: MAX_ADDRESSES });
let perMinute: number | undefined;
// Read once: env() rebuilds its cache key from every variable, too much for each request.
const limit = () => (perMinute ??= env().AUTH_FAILURES_PER_MINUTE);

/** Throws 429 rate_limited (and closes the connection) when `address` used up its failures this minute. */
export function refuseIfFailingTooOften(address: string | null): void {
  if (address === null) return;
  const w = windows.get(address);
  if (!w || limit() <= 0) return;
  const left = w.start + WINDOW_MS - Date.now();
  if (left <= 0 || w.failures < limit()) return;
  throw appError("rate_limited", "too many failed authentications from this address, retry later", {
    headers: { "Retry-After": String(Math.max(1, Math.ceil(left / 1000))), Connection: "close" },
  });
}

/** Counts one 401 against `address`. */
export function countAuthFailure(address: string | null): void {
  if (address === null || limit() <= 0) return;
  const now = Date.now();
  const w = windows.get(address);
  if (w && now - w.start < WINDOW_MS) w.failures++;
  else windows.set(address, { start: now, failures: 1 });
}
