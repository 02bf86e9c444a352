import crypto from "node:crypto";
import { decryptText, encryptionKey, IV_BYTES, TAG_BYTES } from "./secret-box";

/**
 * Issue 40.7 (decision 0104): batches of sealed texts (secret-box's layout,
 * laid end to end in `sealed`, `lengths` saying where each ends) read and
 * opened more than once: a streamed order writes its keys twice (`payload`,
 * then `delivery_data`) and holds neither copy.
 *
 * The first opening of a batch is AES-GCM's, tag checked key by key; it
 * remembers the batch's SHA-256 (of its lengths and bytes). A later opening
 * of the same batch number is accepted only when its bytes hash the same,
 * i.e. are the very bytes whose tags were checked, and then needs only the
 * AES-CTR half of GCM: the keystream of every key of the batch made in one
 * AES-ECB call and XORed in. Making a GCM decipher costs about 5 µs a key
 * (half of a key's opening), so the second pass of a 100,000-key order fell
 * from about 0.9 s to well under a tenth of that (docs/benchmarks.md
 * "Issue 40.7"). Other bytes or cuts under a batch number already opened
 * throw; a batch number not opened before gets GCM's opening: nothing
 * unauthenticated is ever returned.
 */
export class SealedBatches {
  private readonly digests = new Map<number, Buffer>();

  open(batch: number, sealed: Buffer, lengths: readonly number[]): string[] {
    const digest = digestOf(sealed, lengths);
    const known = this.digests.get(batch);
    if (!known) {
      const texts = eachSealed(sealed, lengths, decryptText);
      this.digests.set(batch, digest);
      return texts;
    }
    if (!crypto.timingSafeEqual(known, digest)) throw new Error("SealedBatches: a batch's bytes changed since it was opened");
    return reopened(sealed, lengths);
  }
}

function digestOf(sealed: Buffer, lengths: readonly number[]): Buffer {
  return crypto
    .createHash("sha256")
    .update(Buffer.from(Uint32Array.from(lengths).buffer))
    .update(sealed)
    .digest();
}

function eachSealed<T>(sealed: Buffer, lengths: readonly number[], f: (one: Buffer) => T): T[] {
  let total = 0;
  for (const n of lengths) {
    if (!Number.isInteger(n) || n < IV_BYTES + TAG_BYTES) throw new Error("SealedBatches: a length is shorter than a sealed text");
    total += n;
  }
  if (total !== sealed.length) throw new Error("SealedBatches: the lengths do not cover the bytes");
  let at = 0;
  return lengths.map((n) => f(sealed.subarray(at, (at += n))));
}

const BLOCK = 16;

/**
 * GCM with a 96-bit IV encrypts block i (from 1) of the text with
 * AES(key, IV ‖ uint32be(i + 1)) (NIST SP 800-38D §7.1: the counter J0 is
 * IV ‖ 1 and is used only for the tag). The tags were checked at the first
 * opening, so only the keystream is needed.
 */
function reopened(sealed: Buffer, lengths: readonly number[]): string[] {
  const bodies = eachSealed(sealed, lengths, (one) => {
    const text = one.subarray(IV_BYTES + TAG_BYTES);
    return { iv: one.subarray(0, IV_BYTES), text, blocks: Math.ceil(text.length / BLOCK) };
  });
  const counters = Buffer.alloc(bodies.reduce((n, b) => n + b.blocks, 0) * BLOCK);
  let at = 0;
  for (const { iv, blocks } of bodies) {
    for (let i = 1; i <= blocks; i++, at += BLOCK) {
      iv.copy(counters, at);
      counters.writeUInt32BE(i + 1, at + IV_BYTES);
    }
  }
  const ecb = crypto.createCipheriv("aes-256-ecb", encryptionKey(), null).setAutoPadding(false);
  const keystream = Buffer.concat([ecb.update(counters), ecb.final()]);
  at = 0;
  return bodies.map(({ text, blocks }) => {
    const plain = Buffer.allocUnsafe(text.length);
    for (let i = 0; i < text.length; i++) plain[i] = text[i] ^ keystream[at + i];
    at += blocks * BLOCK;
    return plain.toString("utf8");
  });
}
