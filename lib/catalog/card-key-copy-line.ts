import { fingerprint, sealText } from "../crypto/secret-box";

/**
 * One staged card key as a row of COPY's text format: sku_code, keyed
 * fingerprint, AES-GCM ciphertext (bytea hex). sku_code is [A-Za-z0-9._-] and
 * the rest is hex, so nothing needs escaping. The only place a key is sealed
 * for bulk import, on the main thread or in seal-worker.ts.
 */
export function copyLine(skuCode: string, key: string): string {
  return `${skuCode}\t${fingerprint(key)}\t\\\\x${sealText(key).toString("hex")}\n`;
}
