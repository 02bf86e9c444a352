import crypto from "node:crypto";

// Section 5: signature = hex(HMAC-SHA256(secret, METHOD \n PATH \n TIMESTAMP \n hex(MD5(body)))).
// Shared by our server (verification), our own client of other suppliers
// (lib/upstream), callbacks (D27) and the benchmark scripts.

export type BodyBytes = string | Uint8Array;

/** Lowercase hex MD5 of the raw body bytes; a string is taken as UTF-8. Empty body → MD5 of zero bytes. */
export function bodyMd5(body: BodyBytes = ""): string {
  if (body.length === 0) return EMPTY_MD5; // every GET: one hash object fewer per request
  return crypto
    .createHash("md5")
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest("hex");
}

const EMPTY_MD5 = crypto.createHash("md5").digest("hex");

export interface SignInput {
  /** Upper-cased before signing. */
  method: string;
  /** Path only: no scheme, host or query string (a query string, if passed, is cut off). */
  path: string;
  /** Unix seconds, exactly as sent in Svc-Timestamp. */
  timestamp: string | number;
  /** The exact bytes sent; "" or omitted for GET. */
  body?: BodyBytes;
}

export function signString({ method, path, timestamp, body }: SignInput): string {
  return [method.toUpperCase(), stripQuery(path), String(timestamp), bodyMd5(body ?? "")].join("\n");
}

/**
 * Lowercase hex HMAC-SHA256 of the sign string, keyed with the API secret:
 * its text, or a KeyObject of its UTF-8 bytes (made once, the server's
 * credential cache saves importing the key again on every request).
 */
export function signRequest(input: SignInput & { secret: string | crypto.KeyObject }): string {
  return crypto.createHmac("sha256", input.secret).update(signString(input), "utf8").digest("hex");
}

const SIGNATURE_RE = /^[0-9a-f]{64}$/;

/**
 * Constant-time check of a received signature (D6). Only lowercase hex is
 * accepted: an upper-case signature is rejected even when it is the same number.
 */
export function verifySignature(input: SignInput & { secret: string | crypto.KeyObject; signature: string }): boolean {
  if (!SIGNATURE_RE.test(input.signature)) return false;
  const expected = Buffer.from(signRequest(input), "hex");
  const given = Buffer.from(input.signature, "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function stripQuery(path: string): string {
  const q = path.indexOf("?");
  return q === -1 ? path : path.slice(0, q);
}
