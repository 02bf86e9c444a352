import { checkCardKey } from "../catalog/delivery-format";
import type { DeliveryFormat } from "../generated/prisma/enums";
import { formatAmount } from "../protocol/amount";
import type { UpstreamOrder } from "./upstream-client";

export type DeliveryCheck = { ok: true; lines: string[] } | { ok: false; reason: string };

/**
 * Issue 22.1: what an upstream answers `delivered` is accepted only when it is
 * what the buyer paid for and what we can afford. Checked before anything is
 * stored (run-purchase.ts); a refusal sends the order to review with the
 * reason returned here, in our own words (never a line or any upstream text):
 * - exactly one line per unit ordered; for a product the upstream lists as
 *   `manual`, at least one line (its operator's text, D21: one entry per line
 *   of a manual delivery, however many units; decision 0052);
 * - each line non-empty and storable as a card key of the product's delivery
 *   format (the D14 rules of lib/catalog/delivery-format.ts, as for stock);
 * - a known cost of at most the ceiling per unit: the SKU's maximum cost when
 *   an administrator set one, else the unit price the buyer paid, so an
 *   order is never delivered at a loss without an administrator's decision.
 */
export function checkUpstreamDelivery(input: {
  order: UpstreamOrder;
  /** The upstream's charge (UpstreamPurchase.costCents); null when it sent no usable amount. */
  costCents: bigint | null;
  quantity: number;
  /** The upstream lists the product as `manual` (Product.upstreamManual). */
  manual: boolean;
  format: DeliveryFormat;
  delimiter: string;
  maxUnitCostCents: bigint;
}): DeliveryCheck {
  const { costCents, quantity, maxUnitCostCents } = input;
  const lines = rawLines(input.order);
  if (input.manual ? lines.length === 0 : lines.length !== quantity)
    return refuse(`the upstream delivered ${lines.length} line(s) for a quantity of ${quantity}`);
  const keys: string[] = [];
  for (const [i, line] of lines.entries()) {
    const key = checkCardKey(line, input.format, input.delimiter);
    if (!key.ok) return refuse(`the upstream's line ${i + 1} cannot be stored (${key.reason})`);
    keys.push(key.key);
  }
  if (costCents === null) return refuse("the upstream reported no usable cost");
  if (costCents > maxUnitCostCents * BigInt(quantity)) {
    return refuse(
      `the upstream charged ${formatAmount(costCents)} for ${quantity} unit(s), above the maximum cost of ${formatAmount(maxUnitCostCents)} per unit`,
    );
  }
  return { ok: true, lines: keys };
}

const refuse = (why: string): DeliveryCheck => ({ ok: false, reason: `${why}; nothing was delivered` });

/**
 * The delivered lines as the upstream sent them: D21 delivery_data, else the
 * payload split by line (one final line break allowed). Blank lines are kept
 * so that they are refused, not silently dropped.
 */
function rawLines(order: UpstreamOrder): string[] {
  const f = order.fulfillment;
  if (f?.delivery_data?.length) return f.delivery_data;
  const payload = (f?.payload ?? "").replace(/\r?\n$/, "");
  return payload === "" ? [] : payload.split(/\r?\n/);
}
