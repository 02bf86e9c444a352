// Amounts are integer fen (BigInt) inside, strings with exactly two decimals
// on the wire (D3). No floating point anywhere on the way. Every amount a
// person or another supplier types is checked by the pattern below (15 whole
// digits fit a bigint of fen with room to spare), and nowhere else.
import { z } from "zod";

/** An amount as text: optional minus, up to 15 whole digits, at most two decimals. */
const AMOUNT_PATTERN = /^(-)?(\d{1,15})(?:\.(\d{1,2}))?$/;

/** "12.3" → 1230n; throws on anything that is not a plain decimal with ≤ 2 places. */
export function parseAmount(text: string): bigint {
  const m = AMOUNT_PATTERN.exec(text.trim());
  if (!m) throw new RangeError(`not an amount with at most two decimals: ${JSON.stringify(text)}`);
  const cents = BigInt(m[2]) * 100n + BigInt((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -cents : cents;
}

export function isAmount(text: string): boolean {
  return AMOUNT_PATTERN.test(text.trim());
}

/** 1230n → "12.30"; -5n → "-0.05". */
export function formatAmount(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}

export const CURRENCY = "CNY";

/** An amount as another supplier sends it: checked, kept as text (its sign is judged by the caller). */
export const AmountTextSchema = z.string().regex(AMOUNT_PATTERN);

/** An amount typed by a person (admin form, CLI): any sign, into fen. */
export const AmountInputSchema = z
  .string()
  .refine(isAmount, "must be an amount with at most two decimals, like -5.00")
  .transform((s) => parseAmount(s));

/** A price, an opening balance: zero or more, into fen (the catalogue file's rule, issue 2). */
export const NonNegativeAmountInputSchema = z
  .string()
  .refine((s) => isAmount(s) && parseAmount(s) >= 0n, 'must be a non-negative amount string with at most two decimals, like "10.00"')
  .transform((s) => parseAmount(s));

/** A price, a cap, a limit: above zero, into fen (issue 38: contract prices, tiers, max_total). */
export const PositiveAmountInputSchema = z
  .string("must be an amount string")
  .refine(
    (s) => s === s.trim() && isAmount(s) && parseAmount(s) > 0n,
    'must be a positive amount string with at most two decimals, like "10.00"',
  )
  .transform((s) => parseAmount(s));
