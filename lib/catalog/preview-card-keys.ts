import { fingerprint } from "../crypto/secret-box";
import { db } from "../db/client";
import { onPool } from "../db/sql-rows";
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
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((row, i) => {
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
      if (row[i + 1] === '"') {
        cell += '"';
        i++;
      } else return cell;
    } else cell += row[i];
  }
  return cell; // unterminated quote: take the rest
}

/**
 * Checks every line for a SKU (D14: against the product's delivery format)
 * and drops repeats within the text: the counts and the unique well-formed
 * keys, not yet compared with what the SKU holds (`duplicateExisting` 0,
 * `fresh` every unique key). Runs in the caller's transaction when given one.
 */
export async function readCardKeyText(
  skuId: number,
  text: string,
  kind: "txt" | "csv",
  tx: Tx = db(),
): Promise<{ preview: CardKeyPreview; keys: string[]; skuCode: string }> {
  const sku = await tx.sku.findFirst({
    where: { id: skuId, deletedAt: null },
    select: { skuCode: true, product: { select: { fulfillmentType: true, deliveryFormat: true, deliveryDelimiter: true } } },
  });
  if (!sku) throw appError("not_found", "SKU not found");
  if (sku.product.fulfillmentType !== "auto") throw appError("bad_request", "card keys are only for products with automatic fulfillment");
  const preview: CardKeyPreview = { lines: 0, fresh: 0, duplicateExisting: 0, duplicateInUpload: 0, malformed: 0, problems: [] };
  const keys = new Set<string>(); // the same key is the same fingerprint: no HMAC needed to find repeats
  for (const { line, raw } of splitCardKeyText(text, kind)) {
    preview.lines++;
    const check = checkCardKey(raw, sku.product.deliveryFormat, sku.product.deliveryDelimiter);
    if (!check.ok) {
      preview.malformed++;
      if (preview.problems.length < MAX_REPORTED) preview.problems.push({ line, reason: check.reason });
    } else if (keys.has(check.key)) preview.duplicateInUpload++;
    else keys.add(check.key);
  }
  preview.fresh = keys.size;
  return { preview, keys: [...keys], skuCode: sku.skuCode };
}

/**
 * The counts only, what the console shows before the administrator confirms:
 * readCardKeyText's, with the keys the SKU already holds counted out.
 */
export async function previewCardKeys(skuId: number, text: string, kind: "txt" | "csv"): Promise<CardKeyPreview> {
  const { preview, keys } = await readCardKeyText(skuId, text, kind);
  // One statement with an array parameter: 20,000 fingerprints as Prisma `in`
  // lists of 5,000 took over 100 ms (issue 13.3).
  const [{ n }] = await onPool(`SELECT count(*)::int AS n FROM "CardKey" WHERE "skuId" = $1 AND fingerprint = ANY($2::text[])`, [
    skuId,
    keys.map(fingerprint),
  ]);
  preview.duplicateExisting = Number(n);
  preview.fresh -= preview.duplicateExisting;
  return preview;
}
