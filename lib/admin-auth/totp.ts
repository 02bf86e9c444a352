import crypto from "node:crypto";
import { Secret, TOTP } from "otpauth";

// RFC 6238 TOTP (SHA-1, 6 digits, 30 s) as every authenticator app expects.
// The secret is stored AES-256-GCM encrypted (AdminUser.totpSecretCiphertext);
// recovery codes are random and high-entropy, so a SHA-256 hash is enough.

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

/** Accepts the current code and one step either side (clock drift). */
export function checkTotp(secretBase32: string, code: string): boolean {
  const digits = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(digits)) return false;
  return totpFor(secretBase32).validate({ token: digits, window: 1 }) !== null;
}

/** The current code (tests and the e2e suite act as the authenticator app). */
export function currentTotp(secretBase32: string): string {
  return totpFor(secretBase32).generate();
}

export function newRecoveryCodes(count = 8): string[] {
  return Array.from({ length: count }, () => {
    const raw = crypto.randomBytes(5).toString("hex");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

export function hashRecoveryCode(code: string): string {
  return crypto.createHash("sha256").update(code.trim().toLowerCase()).digest("hex");
}
