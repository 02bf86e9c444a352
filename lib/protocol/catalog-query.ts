import { z } from "zod";
import type { Profile } from "./profiles";
import { firstStampAfter } from "./sync-time";

// Query parameters of GET {prefix}/products (section 4.3, D10).
// Profile P rejects malformed or out-of-range values (400 bad_request);
// Profile U clamps page_size into 1..100 and page to >= 1, and treats a
// malformed value as the default.

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;
export const PAGE_MAX = 1_000_000_000;

export interface ProductsQuery {
  page: number;
  page_size: number;
  include_inactive: boolean;
  /** Issue 12.1: the first stamp (µs) an `updated_after` answer lists; undefined for a plain listing. */
  updated_after: number | undefined;
}

const BOOL_VALUES: Record<string, boolean> = { true: true, false: false, "1": true, "0": false };
const intText = /^[0-9]{1,10}$/;

/** Profile P (D10): absent → fallback; anything but a plain integer in range → 400. Shared with the statement query. */
export const strictInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || (intText.test(v) && Number(v) >= min && Number(v) <= max), {
      message: `must be an integer from ${min} to ${max}`,
    })
    .transform((v) => (v === undefined ? fallback : Number(v)));

const strictBool = z
  .string()
  .optional()
  .refine((v) => v === undefined || Object.hasOwn(BOOL_VALUES, v), { message: "must be true, false, 1 or 0" })
  .transform((v) => (v === undefined ? false : BOOL_VALUES[v]));

/** Profile U (D10): clamped into range; malformed → fallback. Shared with the statement query. */
export const lenientInt = (min: number, max: number, fallback: number) =>
  z
    .unknown()
    .optional()
    .transform((v) => (typeof v === "string" && /^-?[0-9]{1,10}$/.test(v) ? Math.min(max, Math.max(min, Number(v))) : fallback));

const strictSince = z
  .string()
  .optional()
  .refine((v) => v === undefined || firstStampAfter(v) !== undefined, { message: "must be an RFC 3339 time or Unix seconds" })
  .transform((v) => (v === undefined ? undefined : firstStampAfter(v)));
const lenientSince = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" ? firstStampAfter(v) : undefined));

const lenientBool = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" && Object.hasOwn(BOOL_VALUES, v) ? BOOL_VALUES[v] : false));

/** Input: Object.fromEntries(url.searchParams). Unknown parameters are ignored in both profiles. */
export const ProductsQuerySchema = {
  P: z.object({
    page: strictInt(1, PAGE_MAX, 1),
    page_size: strictInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    include_inactive: strictBool,
    updated_after: strictSince,
  }),
  U: z.object({
    page: lenientInt(1, PAGE_MAX, 1),
    page_size: lenientInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    include_inactive: lenientBool,
    updated_after: lenientSince,
  }),
} satisfies Record<Profile, z.ZodType<ProductsQuery>>;

/**
 * Dujiao-Next's list (decision 0090): Profile U's parameters, with their page
 * size rule (upstream_handler.go ListProducts: default 20; below 1 or above 50
 * becomes 50), so their importer gets the pages it counts on.
 */
export const DujiaoProductsQuerySchema: z.ZodType<ProductsQuery> = ProductsQuerySchema.U.extend({
  page_size: z
    .unknown()
    .optional()
    .transform((v) => {
      if (v === undefined) return 20;
      const n = typeof v === "string" && /^-?[0-9]{1,10}$/.test(v) ? Number(v) : 0;
      return n < 1 || n > 50 ? 50 : n;
    }),
});
