// Issue 12.1: times of the incremental catalogue sync. Stamps are kept in
// microseconds (unique per product); the wire shows `updated_at` in
// milliseconds (RFC 3339, UTC) and the `sync_token` in microseconds, so that
// passing it back as `updated_after` resumes exactly after the last product
// seen. `updated_after` accepts RFC 3339 (any fraction) or Unix seconds.

/** RFC 3339, UTC, milliseconds: the wire `updated_at`. */
export function wireTime(micros: number): string {
  return new Date(Math.floor(micros / 1000)).toISOString();
}

/** RFC 3339, UTC, microseconds: the wire `sync_token`. */
export function syncToken(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString(); // ...T12:34:56.789Z
  return `${iso.slice(0, 23)}${String(micros % 1000).padStart(3, "0")}Z`;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;
const UNIX = /^\d{1,11}(?:\.\d{1,6})?$/;

/**
 * The instant `updated_after` names, as the first stamp (µs) that is "after"
 * it. A value given to the millisecond or coarser means after that
 * millisecond (the precision of `updated_at`), so a product whose wire
 * `updated_at` equals the value is not listed; a `sync_token` (microseconds)
 * resumes exactly. Undefined for a malformed value.
 */
export function firstStampAfter(value: string): number | undefined {
  const unix = UNIX.test(value) ? value : undefined;
  if (unix) {
    const [whole, frac = ""] = unix.split(".");
    return afterMicros(Number(whole) * 1_000_000 + Number(frac.padEnd(6, "0")), frac.length);
  }
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [, date, time, frac = "", zone] = m;
  const [y, mo, d] = date.split("-").map(Number);
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return undefined; // 2026-02-31 is not a day
  const ms = Date.parse(`${date}T${time}${zone.toUpperCase()}`);
  if (!Number.isFinite(ms)) return undefined;
  return afterMicros(ms * 1000 + Number(frac.slice(0, 6).padEnd(6, "0")), frac.length);
}

function afterMicros(micros: number, fractionDigits: number): number | undefined {
  if (!Number.isSafeInteger(micros) || micros < 0) return undefined;
  // Coarser than a microsecond: after the whole millisecond it falls in.
  return fractionDigits > 3 ? micros + 1 : (Math.floor(micros / 1000) + 1) * 1000;
}
