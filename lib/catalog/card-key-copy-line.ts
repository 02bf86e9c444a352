import { fingerprintInto, FINGERPRINT_CHARS, sealedLength, sealTextInto } from "../crypto/secret-box";

// One staged card key as a row of COPY's binary format (decision 0020):
// sku_id and the SKU's slot in the import (both NULL while the SKU does not
// exist yet; card-key-move.ts), lead (the SKU's first key in the chunk),
// sku_code (NULL once the id is known), keyed
// fingerprint (hex text, as stored), AES-GCM ciphertext as raw bytes: no
// text escaping or hex on either side. The only place a key is sealed for
// bulk import.

/** What starts and ends every binary COPY: signature, flags, header extension; the trailer. */
export const COPY_HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
export const COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** Bytes writeCopyRow needs for this key at most. */
export function copyRowLength(skuCode: string, key: string): number {
  return 2 + 8 + 8 + 5 + 4 + skuCode.length + 4 + FINGERPRINT_CHARS + 4 + sealedLength(key);
}

/** Writes the row at `at` in `out` (copyRowLength bytes must be free); returns the offset after it. */
export function writeCopyRow(
  out: Buffer,
  at: number,
  sku: { id: number; slot: number } | undefined,
  lead: boolean,
  skuCode: string,
  key: string,
): number {
  at = out.writeInt16BE(6, at);
  if (sku === undefined) {
    at = out.writeInt32BE(-1, at);
    at = out.writeInt32BE(-1, at);
    at = out.writeInt32BE(-1, at);
    at = out.writeInt32BE(skuCode.length, at);
    at += out.write(skuCode, at, "latin1");
  } else {
    at = out.writeInt32BE(4, at);
    at = out.writeInt32BE(sku.id, at);
    at = out.writeInt32BE(4, at);
    at = out.writeInt32BE(sku.slot, at);
    at = out.writeInt32BE(1, at);
    at = out.writeUInt8(lead ? 1 : 0, at);
    at = out.writeInt32BE(-1, at);
  }
  at = out.writeInt32BE(FINGERPRINT_CHARS, at);
  at = fingerprintInto(key, out, at);
  const sealed = sealTextInto(key, out, at + 4);
  at = out.writeInt32BE(sealed, at);
  return at + sealed;
}
