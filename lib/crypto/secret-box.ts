import crypto from "node:crypto";
import { masterKeys } from "./keys";

export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** AES-256-GCM. Layout: iv(12) | tag(16) | ciphertext. */
export function encryptText(plain: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(sealedLength(plain));
  sealTextInto(plain, Buffer.from(out.buffer), 0);
  return out;
}

/** Bytes sealTextInto writes for `plain`. */
export const sealedLength = (plain: string) => IV_BYTES + TAG_BYTES + Buffer.byteLength(plain, "utf8");

// Sealing, made for bulk (issue 13.3, a million keys): IVs are drawn from the CSPRNG a
// few thousand at a time (one call per key cost about 4 µs) and the keys are
// KeyObjects made once (a raw key is imported again on every call: 2.6 µs a
// key for the HMAC alone in a CPU profile); each IV is still fresh random
// bytes, used once.
const IV_POOL = 1024 * IV_BYTES;
let ivs = Buffer.alloc(0);
let ivAt = IV_POOL;
let cachedKeys: { raw: ReturnType<typeof masterKeys>; encryption: crypto.KeyObject; fingerprint: crypto.KeyObject } | undefined;

/** The master keys as KeyObjects, made again only when the master keys change. */
function keyObjects() {
  const raw = masterKeys();
  if (cachedKeys?.raw !== raw)
    cachedKeys = { raw, encryption: crypto.createSecretKey(raw.encryption), fingerprint: crypto.createSecretKey(raw.fingerprint) };
  return cachedKeys;
}

/** The encryption key as a KeyObject (lib/crypto/sealed-batches.ts makes GCM's keystream with it). */
export const encryptionKey = () => keyObjects().encryption;

/** The sealing itself: encryptText's layout written into `out` at `at` (bulk writers pass their COPY buffer); returns the bytes written (sealedLength). */
export function sealTextInto(plain: string, out: Buffer, at: number): number {
  if (ivAt === IV_POOL) {
    ivs = crypto.randomFillSync(Buffer.allocUnsafe(IV_POOL));
    ivAt = 0;
  }
  const iv = ivs.subarray(ivAt, (ivAt += IV_BYTES));
  const cipher = crypto.createCipheriv("aes-256-gcm", keyObjects().encryption, iv);
  iv.copy(out, at);
  let n = IV_BYTES + TAG_BYTES;
  n += cipher.update(plain, "utf8").copy(out, at + n);
  n += cipher.final().copy(out, at + n);
  cipher.getAuthTag().copy(out, at + IV_BYTES);
  return n;
}

/** Characters of a fingerprint (hex of HMAC-SHA256). */
export const FINGERPRINT_CHARS = 64;

/** fingerprint(plain) written into `out` at `at` as its hex characters; returns the offset after them. */
export function fingerprintInto(plain: string, out: Buffer, at: number): number {
  return at + out.write(fingerprint(plain), at, "latin1");
}

export function decryptText(sealed: Uint8Array): string {
  // A view, not a copy; and the KeyObject made once (issue 40.3: a 100,000-key order opens each key).
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const iv = buf.subarray(0, IV_BYTES);
  const tag = buf.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyObjects().encryption, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(buf.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

/** Keyed fingerprint (HMAC-SHA256, hex) for de-duplicating secrets without storing them. */
export function fingerprint(plain: string): string {
  return crypto.createHmac("sha256", keyObjects().fingerprint).update(plain, "utf8").digest("hex");
}
