// Issue 12.1: times of the incremental catalogue sync. Stamps are kept in
// microseconds (unique per product); the wire shows `updated_at` in
// milliseconds (RFC 3339, UTC) and the `sync_token` in microseconds, so that
// passing it back as `updated_after` resumes exactly after the last product
// seen. `updated_after` accepts RFC 3339 (any fraction) or Unix seconds.
import { z } from "zod";

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

const UNIX_SECONDS = /^[0-9]{1,12}$/;
const RFC3339 = z.iso.datetime({ offset: true });

/**
 * The one reading of a time parameter (`updated_after`, the statement's
 * `from`/`to`): RFC 3339 with Z or an offset, or Unix seconds. Returns the
 * instant in microseconds (rounded up) and how many fraction digits were given.
 */
export function parseInstant(text: string): { micros: number; fractionDigits: number } | undefined {
  if (UNIX_SECONDS.test(text)) return { micros: Number(text) * 1_000_000, fractionDigits: 0 };
  if (!RFC3339.safeParse(text).success) return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return undefined;
  const fraction = /\.([0-9]+)/.exec(text)?.[1] ?? "";
  // Finer than a microsecond rounds up, so an instant is never read as earlier than given.
  const beyond = /[1-9]/.test(fraction.slice(6)) ? 1 : 0;
  return { micros: ms * 1000 + Number(fraction.slice(3, 6).padEnd(3, "0")) + beyond, fractionDigits: fraction.length };
}

/**
 * The instant `updated_after` names, as the first stamp (µs) that is "after"
 * it. A value given to the millisecond or coarser means after that
 * millisecond (the precision of `updated_at`), so a product whose wire
 * `updated_at` equals the value is not listed; a `sync_token` (microseconds)
 * resumes exactly. Undefined for a malformed value.
 */
export function firstStampAfter(value: string): number | undefined {
  const instant = parseInstant(value);
  if (!instant || instant.micros < 0 || !Number.isSafeInteger(instant.micros)) return undefined;
  const { micros, fractionDigits } = instant;
  return fractionDigits > 3 ? micros + 1 : (Math.floor(micros / 1000) + 1) * 1000;
}
