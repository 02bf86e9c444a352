import { appError } from "../errors";
import { CatalogFileSchema, formatPath, type CatalogFile, type CatalogFileProduct } from "./catalog-file-schema";
import { checkCardKey } from "./delivery-format";
import { locateJsonError } from "./locate-json-error";

// Everything about a catalogue file that can be checked without the database,
// so a bad file is rejected whole before anything is written. Messages name
// the field path (`products[1].skus[0].price_amount: …`) and, for card keys,
// the key's position, never the key itself.

export const MAX_REPORTED = 20;

/** Parses and validates the file's text; throws AppError("bad_request") listing the problems. */
export function readCatalogFile(text: string): CatalogFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw appError("bad_request", `catalogue file is not valid JSON${jsonErrorLocation(text)}`);
  }
  return validateCatalogFile(value);
}

/** The first MAX_REPORTED problems of a kind, and how many more there were. */
export interface CappedProblems {
  list: string[];
  more: number;
}

/**
 * Validates a parsed file. A file read as a stream (read-catalog-stream.ts)
 * arrives without its card keys, which were checked as they streamed past
 * (`streamed` holds what that found); its problems are reported the same way.
 */
export function validateCatalogFile(value: unknown, streamed?: { schema: CappedProblems; keys: CappedProblems }): CatalogFile {
  const parsed = CatalogFileSchema.safeParse(value);
  const schemaProblems = parsed.success ? [] : parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
  if (schemaProblems.length || streamed?.schema.list.length)
    fail([...schemaProblems, ...(streamed?.schema.list ?? [])], streamed?.schema.more);
  const file = parsed.data!;
  const problems: string[] = [];

  duplicates(
    file.categories.map((c) => c.slug),
    (i, slug) => problems.push(`categories[${i}].slug: duplicate slug "${slug}"`),
  );
  duplicates(
    file.products.map((p) => p.slug),
    (i, slug) => problems.push(`products[${i}].slug: duplicate slug "${slug}"`),
  );
  const skuPaths: string[] = [];
  const skuCodes: string[] = [];
  file.products.forEach((p, i) => p.skus.forEach((s, j) => (skuPaths.push(`products[${i}].skus[${j}]`), skuCodes.push(s.sku_code))));
  duplicates(skuCodes, (k, code) => problems.push(`${skuPaths[k]}.sku_code: duplicate sku_code "${code}"`));

  file.products.forEach((product, i) => {
    product.skus.forEach((sku, j) => {
      // Normalise in place: the stored key is the checked one (trimmed).
      const checked: string[] = [];
      checkSkuKeys({
        at: `products[${i}].skus[${j}].card_keys`,
        product,
        keys: sku.card_keys,
        problems,
        onKey: (key) => checked.push(key),
      });
      sku.card_keys = checked;
    });
  });
  if (streamed) problems.push(...streamed.keys.list);
  if (problems.length) fail(problems, streamed?.keys.more);
  return file;
}

/**
 * D14: one SKU's keys against its product's delivery format. Each good key
 * (trimmed) goes to `onKey`; each bad one adds a problem naming its position.
 */
export function checkSkuKeys({
  at,
  product,
  keys,
  problems,
  onKey,
}: {
  at: string;
  product: Pick<CatalogFileProduct, "fulfillment_type" | "delivery_format" | "delivery_delimiter">;
  keys: readonly string[];
  problems: string[];
  onKey: (key: string) => void;
}): void {
  if (keys.length && product.fulfillment_type !== "auto") {
    problems.push(`${at}: only auto products hold card keys (this one is ${product.fulfillment_type})`);
    return;
  }
  keys.forEach((key, k) => {
    const check = checkCardKey(key, product.delivery_format, product.delivery_delimiter);
    if (check.ok) onKey(check.key);
    else problems.push(`${at}[${k}]: ${check.reason}`);
  });
}

/** Throws one error listing the first problems (a 10,000-key file may have 10,000). */
export function fail(problems: string[], notListed = 0): never {
  const shown = problems.slice(0, MAX_REPORTED);
  const hidden = problems.length - shown.length + notListed;
  const more = hidden > 0 ? `\n… and ${hidden} more` : "";
  throw appError("bad_request", `invalid catalogue file, nothing was imported:\n${shown.join("\n")}${more}`);
}

function duplicates(values: string[], report: (index: number, value: string) => void) {
  const seen = new Set<string>();
  values.forEach((v, i) => (seen.has(v) ? report(i, v) : seen.add(v)));
}

/** " (line L, column C)" of the first syntax error, never the text there (it may be a card key). */
function jsonErrorLocation(text: string): string {
  const pos = locateJsonError(text);
  if (pos < 0) return "";
  const before = text.slice(0, pos);
  return ` (line ${before.split("\n").length}, column ${pos - before.lastIndexOf("\n")})`;
}
