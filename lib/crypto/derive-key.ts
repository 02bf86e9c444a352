import crypto from "node:crypto";
import { ensureSecrets } from "./secrets";

const cache = new Map<string, Buffer>();

/**
 * A 32-byte key for one purpose, derived from SECRET_KEY with HKDF-SHA-256.
 * Each `info` label gives an independent key, so a key used for one job (say,
 * hashing recovery codes) never doubles as another's (signing device cookies).
 */
export function deriveKey(info: string): Buffer {
  let key = cache.get(info);
  if (!key) {
    const ikm = Buffer.from(ensureSecrets().secretKey, "utf8");
    key = Buffer.from(crypto.hkdfSync("sha256", ikm, Buffer.alloc(0), info, 32));
    cache.set(info, key);
  }
  return key;
}
