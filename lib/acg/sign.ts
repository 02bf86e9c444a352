import crypto from "node:crypto";
import { phpUrldecode, type FormFields } from "./php-form";

// ACG-Faka's request signature (decision 0091; their app/Util/Str.php lines
// 97-107, generateSignature): drop `sign`, ksort, drop top-level values that
// are exactly '', http_build_query (nested arrays as `name[key]=value`, in the
// order sent), append `&key=<app_key>`, urldecode the whole text, md5 hex.
// http_build_query urlencodes every key and value and urldecode undoes it
// exactly, so the signed text holds them raw; only the appended app_key was
// never encoded, so urldecode changes it (`+` becomes a space, %XX a byte).

/** The exact bytes their md5 covers. */
export function signedBytes(fields: FormFields, appKey: string): Buffer {
  const names = [...fields.keys()].filter((n) => n !== "sign").sort(byteOrder);
  const parts: string[] = [];
  for (const name of names) {
    const value = fields.get(name)!;
    if (value === "") continue; // their `$val === ''` (top level only)
    if (typeof value === "string") parts.push(`${name}=${value}`);
    else for (const [k, v] of value) parts.push(`${name}[${k}]=${v}`); // an empty array adds nothing
  }
  return Buffer.concat([Buffer.from(parts.join("&") + "&key=", "utf8"), phpUrldecode(appKey)]);
}

/** md5 hex (lower case, 32 characters), as their client sends in `sign`. */
export function acgSignature(fields: FormFields, appKey: string): string {
  return crypto.createHash("md5").update(signedBytes(fields, appKey)).digest("hex");
}

/** Constant-time comparison of a sent `sign` with the one `appKey` makes (PHP compares loosely; we do not). */
export function signatureMatches(fields: FormFields, appKey: string): boolean {
  const sent = fields.get("sign");
  // Lower case only: md5() gives lower case, and PHP's `!=` between two such strings is a plain string comparison.
  if (typeof sent !== "string" || !/^[0-9a-f]{32}$/.test(sent)) return false;
  return crypto.timingSafeEqual(Buffer.from(sent, "latin1"), Buffer.from(acgSignature(fields, appKey), "latin1"));
}

/** PHP's ksort on names that are never numeric (php-form.ts): byte order of their UTF-8 text. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
