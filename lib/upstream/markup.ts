import { appError } from "../errors";
import { parseAmount } from "../protocol/amount";
import { MarkupPercentSchema } from "./connection-input";

// The price rule of an upstream import: the upstream's price plus a markup.

/** "10", "12.5", "0.25": a percentage with at most two decimals → basis points (1/100 of a percent). */
export function markupBasisPoints(percent: string): number {
  const checked = MarkupPercentSchema.safeParse(percent);
  if (!checked.success) throw appError("bad_request", "markup percent must be a number like 10 or 12.5 (at most two decimals)");
  return Number(parseAmount(checked.data)); // parseAmount: "12.5" → 1250n, i.e. basis points
}

/** price × (1 + markup), rounded UP to 0.01, in integer fen: ceil(cents × (10000 + bp) / 10000). */
export function applyMarkup(cents: bigint, basisPoints: number): bigint {
  const num = cents * BigInt(10_000 + basisPoints);
  return (num + 9_999n) / 10_000n;
}
