import crypto from "node:crypto";
import { masterKeys } from "./keys";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM. Layout: iv(12) | tag(16) | ciphertext. */
export function encryptText(plain: string): Uint8Array<ArrayBuffer> {
  const out = sealText(plain);
  return new Uint8Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length) as ArrayBuffer);
}

/** encryptText as a Buffer, for bulk writers (COPY) that need no copy of it. */
export function sealText(plain: string): Buffer {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", masterKeys().encryption, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function decryptText(sealed: Uint8Array): string {
  const buf = Buffer.from(sealed);
  const iv = buf.subarray(0, IV_BYTES);
  const tag = buf.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = crypto.createDecipheriv("aes-256-gcm", masterKeys().encryption, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(buf.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

/** Keyed fingerprint (HMAC-SHA256, hex) for de-duplicating secrets without storing them. */
export function fingerprint(plain: string): string {
  return crypto.createHmac("sha256", masterKeys().fingerprint).update(plain, "utf8").digest("hex");
}
