import { fingerprint } from "../crypto/secret-box";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { checkCardKey } from "./delivery-format";

export const MAX_CARD_KEY_LINES = 20_000;
const MAX_REPORTED = 20;

export interface CardKeyPreview {
  lines: number;
  /** Valid, not yet held by the SKU, first occurrence in this upload: what a confirm adds. */
  fresh: number;
  duplicateExisting: number;
  duplicateInUpload: number;
  malformed: number;
  /** The first few problems by line number; the reason never contains the key (delivery-format.ts). */
  problems: { line: number; reason: string }[];
}

/**
 * Splits pasted or uploaded text into candidate keys: one per line (.txt) or
 * the first column of each row (.csv, with "quoted" cells). Blank lines are
 * skipped, not counted.
 */
export function splitCardKeyText(text: string, kind: "txt" | "csv"): { line: number; raw: string }[] {
  const out: { line: number; raw: string }[] = [];
  text.replace(/^\uFEFF/, "").split(/\r?\n/).forEach((row, i) => {
    const raw = kind === "csv" ? firstCsvCell(row) : row;
    if (raw.trim() !== "") out.push({ line: i + 1, raw });
  });
  if (out.length > MAX_CARD_KEY_LINES) throw appError("bad_request", `at most ${MAX_CARD_KEY_LINES} lines per import`);
  return out;
}

function firstCsvCell(row: string): string {
  if (!row.startsWith('"')) return row.split(",")[0];
  let cell = "";
  for (let i = 1; i < row.length; i++) {
    if (row[i] === '"') {
      if (row[i + 1] === '"') { cell += '"'; i++; } else return cell;
    } else cell += row[i];
  }
  return cell; // unterminated quote: take the rest
}

/**
 * Classifies every line for a SKU (D14: checked against the product's delivery
 * format) and returns the counts plus the new keys. Runs in the caller's
 * transaction when given one, so a confirm adds exactly what it counted.
 */
export async function classifyCardKeys(skuId: number, text: string, kind: "txt" | "csv", tx: Tx = db()): Promise<{ preview: CardKeyPreview; keys: string[]; skuCode: string }> {
  const sku = await tx.sku.findFirst({ where: { id: skuId, deletedAt: null }, select: { skuCode: true, product: { select: { fulfillmentType: true, deliveryFormat: true, deliveryDelimiter: true } } } });
  if (!sku) throw appError("not_found", "SKU not found");
  if (sku.product.fulfillmentType !== "auto") throw appError("bad_request", "card keys are only for products with automatic fulfilment");
  const preview: CardKeyPreview = { lines: 0, fresh: 0, duplicateExisting: 0, duplicateInUpload: 0, malformed: 0, problems: [] };
  const valid: { fp: string; key: string }[] = [];
  const seen = new Set<string>();
  for (const { line, raw } of splitCardKeyText(text, kind)) {
    preview.lines++;
    const check = checkCardKey(raw, sku.product.deliveryFormat, sku.product.deliveryDelimiter);
    if (!check.ok) {
      preview.malformed++;
      if (preview.problems.length < MAX_REPORTED) preview.problems.push({ line, reason: check.reason });
      continue;
    }
    const fp = fingerprint(check.key);
    if (seen.has(fp)) { preview.duplicateInUpload++; continue; }
    seen.add(fp);
    valid.push({ fp, key: check.key });
  }
  const held = new Set<string>();
  for (let i = 0; i < valid.length; i += 5000) {
    const rows = await tx.cardKey.findMany({ where: { skuId, fingerprint: { in: valid.slice(i, i + 5000).map((v) => v.fp) } }, select: { fingerprint: true } });
    rows.forEach((r) => held.add(r.fingerprint));
  }
  const keys = valid.filter((v) => !held.has(v.fp)).map((v) => v.key);
  preview.duplicateExisting = valid.length - keys.length;
  preview.fresh = keys.length;
  return { preview, keys, skuCode: sku.skuCode };
}

/** The counts only: what the console shows before the administrator confirms. */
export async function previewCardKeys(skuId: number, text: string, kind: "txt" | "csv"): Promise<CardKeyPreview> {
  return (await classifyCardKeys(skuId, text, kind)).preview;
}
