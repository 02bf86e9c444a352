import crypto from "node:crypto";
import { deriveKey } from "../crypto/derive-key";

// OWASP "device cookies": after a successful sign-in the browser gets a signed
// cookie naming the account. A client that presents a valid one for the account
// it signs in to is "trusted": the per-account slow-down (which anyone anywhere
// can trigger) does not apply to it, so an attacker elsewhere cannot lock the
// owner out. It grants nothing else: the password (and TOTP) are still checked
// and the per-(account, address) lock-out still applies.

export const DEVICE_COOKIE = "cardkey-admin-device";
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
const KEY_INFO = "cardkey-supplier/admin-device-cookie/v1";

function mac(payload: string): string {
  return crypto.createHmac("sha256", deriveKey(KEY_INFO)).update(payload).digest("base64url");
}

/** A new device cookie value for `email`, valid for DEVICE_COOKIE_MAX_AGE_SECONDS. */
export function issueDeviceCookie(email: string, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({
      e: email,
      n: crypto.randomBytes(12).toString("base64url"),
      x: Math.floor(now / 1000) + DEVICE_COOKIE_MAX_AGE_SECONDS,
    }),
  ).toString("base64url");
  return `${payload}.${mac(payload)}`;
}

/** True when `value` is an unexpired device cookie we signed for exactly this e-mail. */
export function isTrustedDevice(value: string | undefined, email: string, now = Date.now()): boolean {
  if (!value || value.length > 1000) return false;
  const [payload, sig, extra] = value.split(".");
  if (!payload || !sig || extra !== undefined) return false;
  const expected = Buffer.from(mac(payload));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return false;
  try {
    const body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { e?: unknown; x?: unknown };
    return body.e === email && typeof body.x === "number" && body.x * 1000 > now;
  } catch {
    return false;
  }
}
