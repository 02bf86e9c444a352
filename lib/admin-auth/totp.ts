import crypto from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { deriveKey } from "../crypto/derive-key";

// RFC 6238 TOTP (SHA-1, 6 digits, 30 s) as every authenticator app expects.
// The secret is stored AES-256-GCM encrypted (AdminUser.totpSecretCiphertext).
// Recovery codes carry 80 random bits and are stored as an HMAC keyed from
// SECRET_KEY: a copy of the table alone cannot be used to test guesses.

const ISSUER = "Card Key Supplier";

function totpFor(secretBase32: string, label = "admin") {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUri(secretBase32: string, email: string): string {
  return totpFor(secretBase32, email).toString();
}

const PERIOD_MS = 30_000;

/**
 * Accepts the current code and one step either side (clock drift) and returns
 * the time step it belongs to, or null. The caller must still claim that step
 * (claimTotpStep) so a code is accepted once.
 */
export function checkTotp(secretBase32: string, code: string, now = Date.now()): number | null {
  const digits = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(digits)) return null;
  const delta = totpFor(secretBase32).validate({ token: digits, window: 1, timestamp: now });
  return delta === null ? null : Math.floor(now / PERIOD_MS) + delta;
}

/** The code at `at` (default now): tests and the e2e suite act as the authenticator app. */
export function currentTotp(secretBase32: string, at = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: at });
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** Codes of 16 base32 characters (80 bits), shown as four groups: "abcd-efgh-ijkl-mnop". */
export function newRecoveryCodes(count = 8): string[] {
  return Array.from({ length: count }, () => {
    const bytes = crypto.randomBytes(16);
    const chars = Array.from(bytes, (b) => BASE32[b & 31]).join("");
    return chars.match(/.{4}/g)!.join("-");
  });
}

/** Keyed hash of a recovery code; separators, spaces and case do not matter. */
export function hashRecoveryCode(code: string): string {
  const normal = code.replace(/[\s-]+/g, "").toLowerCase();
  return crypto.createHmac("sha256", deriveKey("cardkey-supplier/recovery-code/v1")).update(normal).digest("hex");
}
