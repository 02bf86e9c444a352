import { formatAmount } from "../protocol/amount";

/** One recorded fact of an audit row, as the console shows it. */
export type AuditFact = { label: string; value: string };

// Most services record amounts already formatted ("20.00"); a few record fen
// under a name that says so (`cents`, `…Cents`: refund-order-part, older rows).
// Those are shown as amounts, under the name without the unit (issue 35.2).
const CENTS_KEY = /^(?:cents|(.+)Cents)$/;

/**
 * An audit row's details as facts, one per recorded field: the field's name
 * in words ("site name", "max cost"), and amounts as amounts (20.00, never
 * 2000). Values are shown as recorded (e-mails, reasons, SKU codes).
 */
export function auditFacts(details: unknown): AuditFact[] {
  if (details === null || typeof details !== "object" || Array.isArray(details)) {
    return details === null || details === undefined ? [] : [{ label: "", value: show(details) }];
  }
  return Object.entries(details as Record<string, unknown>).map(([key, value]) => {
    const cents = CENTS_KEY.exec(key);
    if (cents && isWholeNumber(value)) return { label: words(cents[1] ?? "amount"), value: formatAmount(BigInt(String(value))) };
    return { label: words(key), value: show(value) };
  });
}

function isWholeNumber(v: unknown): boolean {
  return (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && /^-?\d+$/.test(v));
}

/** `site_name`, `maxCost`, `orders.export` → "site name", "max cost", "orders export". */
function words(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.]+/g, " ")
    .toLowerCase()
    .trim();
}

function show(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}
