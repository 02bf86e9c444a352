import fs from "node:fs";
import { Tokenizer, TokenParser, TokenType } from "@streamparser/json";
import { appError } from "../errors";
import { CardKeysSchema, formatPath, ProductSchema, type CatalogFile } from "./catalog-file-schema";
import { checkSkuKeys, MAX_REPORTED, validateCatalogFile, type CappedProblems } from "./validate-catalog-file";

// Issue 13.3: a catalogue file with a million card keys is read as a stream,
// so memory holds one product's keys at a time, never the file. Each product
// is assembled alone, its keys are checked (D14) and handed to `onKey` (which
// encrypts and COPYs them), and the product is kept without its keys; the
// rest of the file is validated at the end exactly as readCatalogFile does,
// with the same messages. Keys stop being handed on at the first problem.

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What zod needs to say what a top-level value was, without keeping it ("expected array, received number"). */
const STUBS: Partial<Record<TokenType, () => Json>> = {
  [TokenType.LEFT_BRACE]: () => ({}),
  [TokenType.LEFT_BRACKET]: () => [],
  [TokenType.STRING]: () => "",
  [TokenType.NUMBER]: () => 0,
  [TokenType.TRUE]: () => true,
  [TokenType.FALSE]: () => false,
  [TokenType.NULL]: () => null,
};

export interface StreamProgress {
  bytes: number;
  keys: number;
}

export async function readCatalogStream(
  file: string,
  onKey: (skuCode: string, key: string) => Promise<void> | undefined,
  onProgress?: (p: StreamProgress) => void,
  /** Gets every byte read (a digest: the second read of decision 0096 must read the same file). */
  hash?: { update: (chunk: Buffer) => unknown },
): Promise<CatalogFile> {
  const schema = capped();
  const keyProblems = capped();
  let root: Json;
  const top: Record<string, Json> = {};
  const products: Json[] = [];
  const categories: Json[] = [];
  const pending: { index: number; value: Json }[] = [];
  let keys = 0;
  let bytes = 0;

  // Top-level shape from the tokens: which keys there are and what starts their values.
  let depth = 0;
  let topKey: string | undefined;
  let keyNext = false;
  let lastOffset = 0;
  let errorAt: number | undefined;
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ["$.categories.*", "$.products.*"], keepStack: false });
  tokenizer.onToken = (t) => {
    lastOffset = t.offset;
    if (depth === 0 && root === undefined) root = t.token === TokenType.LEFT_BRACE ? top : STUBS[t.token]?.();
    else if (depth === 1 && root === top) {
      if (keyNext && t.token === TokenType.STRING) topKey = String(t.value);
      else if (topKey !== undefined && t.token !== TokenType.COLON) {
        const list = t.token === TokenType.LEFT_BRACKET ? { categories, products }[topKey] : undefined;
        top[topKey] = list ?? STUBS[t.token]?.();
        topKey = undefined;
      }
      keyNext = t.token === TokenType.LEFT_BRACE || t.token === TokenType.COMMA;
    }
    if (t.token === TokenType.LEFT_BRACE || t.token === TokenType.LEFT_BRACKET) depth++;
    if (t.token === TokenType.RIGHT_BRACE || t.token === TokenType.RIGHT_BRACKET) depth--;
    if (depth === 1 && t.token === TokenType.LEFT_BRACE) keyNext = true;
    parser.write(t);
  };
  // The library's messages quote the text at the error, which may be a card key: keep the offset only.
  tokenizer.onError = (err) => (errorAt ??= Number(/absolute position "(\d+)"/.exec(err.message)?.[1] ?? bytes));
  parser.onError = () => (errorAt ??= lastOffset);
  parser.onValue = ({ value, key, stack }) => {
    if (stack.length !== 2) return;
    if (stack[1].key === "categories" && top.categories === categories) categories.push(value);
    if (stack[1].key === "products" && top.products === products) pending.push({ index: key as number, value });
  };

  for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    hash?.update(chunk);
    if (errorAt === undefined) tokenizer.write(chunk);
    for (const { index, value } of pending.splice(0)) {
      for (const [skuCode, key] of takeKeys(index, value, products, schema, keyProblems)) {
        if (!schema.list.length && !keyProblems.list.length) {
          const wait = onKey(skuCode, key);
          if (wait) await wait;
        }
        keys++;
      }
    }
    onProgress?.({ bytes, keys });
    if (errorAt !== undefined) break;
  }
  if (errorAt === undefined) {
    try {
      tokenizer.end();
    } catch {
      errorAt ??= bytes;
    }
  }
  if (errorAt !== undefined) throw appError("bad_request", `catalogue file is not valid JSON${await lineAndColumn(file, errorAt)}`);
  return validateCatalogFile(root, { schema, keys: keyProblems });
}

/**
 * Takes one product's keys out (the product is kept without them), checks
 * them and returns the good ones as [sku_code, key]; problems go to the lists.
 */
function takeKeys(index: number, product: Json, products: Json[], schema: Capped, keyProblems: Capped): [string, string][] {
  products.push(product);
  const raw = new Map<number, Json>();
  if (isObject(product) && Array.isArray(product.skus)) {
    product.skus.forEach((sku: Json, j) => {
      if (isObject(sku) && sku.card_keys !== undefined) {
        raw.set(j, sku.card_keys);
        sku.card_keys = [];
      }
    });
  }
  const parsed = ProductSchema.safeParse(product);
  const good: [string, string][] = [];
  for (const [j, value] of raw) {
    const path = ["products", index, "skus", j, "card_keys"];
    const keys = CardKeysSchema.safeParse(value);
    if (!keys.success) {
      keys.error.issues.forEach((i) => schema.add(`${formatPath([...path, ...i.path])}: ${i.message}`));
      continue;
    }
    if (!parsed.success) continue; // reported by the whole-file check at the end
    const problems: string[] = [];
    const skuCode = parsed.data.skus[j].sku_code;
    checkSkuKeys({ at: formatPath(path), product: parsed.data, keys: keys.data, problems, onKey: (key) => good.push([skuCode, key]) });
    problems.forEach((p) => keyProblems.add(p));
  }
  return good;
}

type Capped = CappedProblems & { add: (problem: string) => void };
function capped(): Capped {
  const c: Capped = { list: [], more: 0, add: (p) => (c.list.length < MAX_REPORTED ? c.list.push(p) : c.more++) };
  return c;
}

/** " (line L, column C)" of a byte offset, read again from the file (only on this error path). */
async function lineAndColumn(file: string, offset: number): Promise<string> {
  let line = 1;
  let lineStart = 0;
  let at = 0;
  for await (const chunk of fs.createReadStream(file, { end: Math.max(offset - 1, 0) }) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1 && at + i < offset; i = chunk.indexOf(10, i + 1)) {
      line++;
      lineStart = at + i + 1;
    }
    at += chunk.length;
  }
  return ` (line ${line}, column ${offset - lineStart + 1})`;
}
