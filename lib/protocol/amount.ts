// Amounts are integer fen (BigInt) inside, strings with exactly two decimals
// on the wire (D3). No floating point anywhere on the way.

const AMOUNT_RE = /^(-)?(\d{1,15})(?:\.(\d{1,2}))?$/;

/** "12.3" → 1230n; throws on anything that is not a plain decimal with ≤ 2 places. */
export function parseAmount(text: string): bigint {
  const m = AMOUNT_RE.exec(text.trim());
  if (!m) throw new RangeError(`not an amount with at most two decimals: ${JSON.stringify(text)}`);
  const cents = BigInt(m[2]) * 100n + BigInt((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -cents : cents;
}

export function isAmount(text: string): boolean {
  return AMOUNT_RE.test(text.trim());
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
