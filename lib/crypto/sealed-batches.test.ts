import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { SealedBatches } from "./sealed-batches";
import { encryptText } from "./secret-box";

// Issue 40.7 (decision 0104): a batch opened again costs only GCM's keystream,
// and is opened again only when its bytes are those whose tags were checked.

/** Texts of every length around the block size, multi-byte characters included, sealed end to end. */
function batchOf(texts: string[]) {
  const sealed = texts.map((t) => Buffer.from(encryptText(t)));
  return { sealed: Buffer.concat(sealed), lengths: sealed.map((s) => s.length) };
}
const texts = [
  "",
  "a",
  "KEY-0123456789ab",
  "KEY-0123456789abc",
  "卡密-éß-🎮-" + "x".repeat(40),
  ...Array.from({ length: 200 }, (_, i) => crypto.randomBytes(i % 70).toString("base64url")),
];

describe("SealedBatches", () => {
  it("opens a batch the same way the first time (AES-GCM) and every later time (its keystream)", () => {
    const { sealed, lengths } = batchOf(texts);
    const opened = new SealedBatches();
    expect(opened.open(0, sealed, lengths)).toEqual(texts);
    expect(opened.open(0, sealed, lengths)).toEqual(texts);
    expect(opened.open(0, Buffer.from(sealed), [...lengths])).toEqual(texts);
  });

  it("refuses a forged key at the first opening: nothing of the batch is returned", () => {
    const { sealed, lengths } = batchOf(texts.slice(0, 5));
    const forged = Buffer.from(sealed);
    forged[lengths[0] + lengths[1] + 30] ^= 1; // a byte of the third key's text
    expect(() => new SealedBatches().open(0, forged, lengths)).toThrow();
  });

  it("refuses a later reading whose bytes or cuts differ from the ones authenticated, and opens a new batch number with GCM", () => {
    const { sealed, lengths } = batchOf(texts.slice(0, 5));
    const opened = new SealedBatches();
    opened.open(0, sealed, lengths);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1] ^= 0x80;
    expect(() => opened.open(0, flipped, lengths)).toThrow(/changed/);
    const recut = [lengths[0] + lengths[1], ...lengths.slice(2)];
    expect(() => opened.open(0, sealed, recut)).toThrow(/changed/);
    // Another batch number is a first opening: GCM checks it (here it fails: the cut is not a key).
    expect(() => opened.open(1, sealed, recut)).toThrow();
    expect(() => opened.open(2, sealed, [...lengths, 40])).toThrow(/length/);
    expect(() => opened.open(2, sealed, lengths.slice(1))).toThrow(/length/);
  });
});
