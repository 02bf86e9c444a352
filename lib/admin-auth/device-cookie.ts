import crypto from "node:crypto";
import { readClaim, signClaim } from "../crypto/signed-claim";

// OWASP "device cookies": after a successful sign-in the browser gets a signed
// cookie naming the account. A client that presents a valid one for the account
// it signs in to is "trusted": the per-account slow-down (which anyone anywhere
// can trigger) does not apply to it, so an attacker elsewhere cannot lock the
// owner out. It grants nothing else: the password (and TOTP) are still checked
// and the per-(account, address) lock-out still applies.

export const DEVICE_COOKIE = "cardkey-admin-device";
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
const KEY_INFO = "cardkey-supplier/admin-device-cookie/v1";

/** A new device cookie value for `email`, valid for DEVICE_COOKIE_MAX_AGE_SECONDS. */
export function issueDeviceCookie(email: string, now = Date.now()): string {
  return signClaim(KEY_INFO, { e: email, n: crypto.randomBytes(12).toString("base64url") }, DEVICE_COOKIE_MAX_AGE_SECONDS, now);
}

/** True when `value` is an unexpired device cookie we signed for exactly this e-mail. */
export function isTrustedDevice(value: string | undefined, email: string, now = Date.now()): boolean {
  return readClaim(KEY_INFO, value, now)?.e === email;
}
