import { z } from "zod";
import { lenientInt, PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, strictInt } from "./catalog-query";
import type { Profile } from "./profiles";
import { parseInstant } from "./sync-time";

// Query parameters of GET {prefix}/statement (docs/decisions/0019-balance-statement.md).
// page and page_size follow the products list exactly (D10): Profile P
// rejects a malformed or out-of-range value with 400 bad_request, Profile U
// clamps page_size into 1..100 and page to >= 1 and treats a malformed value
// as the default. from/to: RFC 3339 with an offset, or Unix seconds; from is
// inclusive, to exclusive, so consecutive windows never count a row twice.
// P rejects a malformed value and a from later than to; U ignores a
// malformed one (and an inverted window is simply empty).

export interface StatementQuery {
  page: number;
  page_size: number;
  /** Inclusive lower bound on created_at. */
  from?: Date;
  /** Exclusive upper bound on created_at. */
  to?: Date;
}

/** Every created_at lies in here; bounds outside it are clamped, which filters exactly the same rows. */
const MIN_MS = 0;
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * "2026-11-22T10:00:00+08:00" or "1763776800" → a Date, else null. created_at
 * is stored to the millisecond, so a bound with finer digits is rounded up:
 * "…00.0005Z" means "after …00.000", for from and to alike.
 */
export function parseTimeParam(text: string): Date | null {
  const instant = parseInstant(text);
  if (!instant) return null;
  const ms = Math.ceil(instant.micros / 1000);
  return new Date(Math.min(MAX_MS, Math.max(MIN_MS, ms)));
}

const strictTime = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const d = parseTimeParam(v);
    if (!d) ctx.addIssue({ code: "custom", message: "must be an RFC 3339 date-time with an offset or Unix seconds" });
    return d ?? undefined;
  });

const lenientTime = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" ? (parseTimeParam(v) ?? undefined) : undefined));

/** Input: Object.fromEntries(url.searchParams). Unknown parameters are ignored in both profiles. */
export const StatementQuerySchema = {
  P: z
    .object({
      page: strictInt(1, PAGE_MAX, 1),
      page_size: strictInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
      from: strictTime,
      to: strictTime,
    })
    .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "must not be earlier than from" }),
  U: z.object({
    page: lenientInt(1, PAGE_MAX, 1),
    page_size: lenientInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    from: lenientTime,
    to: lenientTime,
  }),
} satisfies Record<Profile, z.ZodType<StatementQuery>>;
