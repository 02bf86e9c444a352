import { createHash, timingSafeEqual } from "node:crypto";
import { NotifyRefusedError } from "./driver";

// The MD5 rule epay (彩虹易支付 v1), TokenPay and epusdt share, and the
// reading of their notifies. Every byte of a notify is hostile: whatever is
// wrong with it ends in NotifyRefusedError, never a TypeError.

/** A gateway's fields as signed: each value as the text that went into the signature. */
export type SignedFields = Record<string, string>;

/**
 * Drops the `skip` keys and empty values, sorts the keys ascending (code-unit
 * order, which is byte order for the ASCII keys these gateways use), joins
 * `k=v` with `&` (values raw, not URL-encoded), appends the key with no
 * separator, and answers the MD5 in lower-case hex.
 */
export function md5Sign(fields: SignedFields, key: string, skip: readonly string[]): string {
  const text = Object.keys(fields)
    .filter((k) => !skip.includes(k) && fields[k] !== "")
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("&");
  return createHash("md5")
    .update(text + key, "utf8")
    .digest("hex");
}

/**
 * Constant time: `expected` is lower-case hex, so an upper-cased signature
 * (which the gateways never send) is refused rather than folded.
 */
export function sameSignature(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(given, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Refuses a notify whose signature is not ours; the why names the field, never a value. */
export function requireSignature(fields: SignedFields, key: string, field: string, skip: readonly string[]): void {
  const given = Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (!given) throw new NotifyRefusedError(`no ${field}`);
  if (!sameSignature(md5Sign(fields, key, skip), given)) throw new NotifyRefusedError(`${field} does not match`);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * JSON text with every bare number put in quotes, so JSON.parse keeps its
 * digits as sent: a gateway that signed `ActualAmount=10.00` sent 10.00, and
 * JSON.parse alone would give 10 (and lose digits of a huge number). Strings
 * are copied untouched; anything else is left for JSON.parse to judge.
 */
export function quoteJsonNumbers(text: string): string {
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    let j = i + 1;
    if (c === '"') {
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      parts.push(text.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      while (j < text.length && /[0-9eE.+-]/.test(text[j])) j++;
      const token = text.slice(i, j);
      if (!JSON_NUMBER.test(token)) throw new SyntaxError("not a JSON number");
      parts.push(`"${token}"`);
    } else parts.push(c);
    i = j;
  }
  return parts.join("");
}

/**
 * A JSON notify body as signed fields: one flat object of single values.
 * Numbers keep their text, booleans become "true"/"false", null counts as
 * empty (the sign rule drops empty values). Nested values cannot be signed
 * by these rules, so a body with one is refused.
 */
export function readJsonFields(rawBody: Buffer): SignedFields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(quoteJsonNumbers(rawBody.toString("utf8")));
  } catch {
    throw new NotifyRefusedError("the body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new NotifyRefusedError("the body is not a JSON object");
  const entries: [string, string][] = [];
  for (const [k, v] of Object.entries(parsed)) {
    if (v === null) entries.push([k, ""]);
    else if (typeof v === "string" || typeof v === "boolean") entries.push([k, String(v)]);
    else throw new NotifyRefusedError(`the field ${JSON.stringify(k.slice(0, 40))} is not a single value`);
  }
  return Object.fromEntries(entries);
}

/** A field the report needs: present and not empty, or the notify is refused. */
export function requiredField(fields: SignedFields, name: string): string {
  const v = Object.hasOwn(fields, name) ? fields[name] : "";
  if (!v) throw new NotifyRefusedError(`no ${name}`);
  return v;
}
