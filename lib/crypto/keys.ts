import crypto from "node:crypto";
import { ensureSecrets } from "./secrets";

let derived: { encryption: Buffer; fingerprint: Buffer } | undefined;

/**
 * Two independent 32-byte keys derived from SECRET_KEY with HKDF, so the
 * fingerprint key (for de-duplication) never doubles as the encryption key.
 */
export function masterKeys() {
  if (!derived) {
    const { secretKey } = ensureSecrets();
    const ikm = Buffer.from(secretKey, "utf8");
    const hkdf = (info: string) => Buffer.from(crypto.hkdfSync("sha256", ikm, Buffer.alloc(0), info, 32));
    derived = { encryption: hkdf("cardkey-supplier/aes-256-gcm/v1"), fingerprint: hkdf("cardkey-supplier/fingerprint/v1") };
  }
  return derived;
}
