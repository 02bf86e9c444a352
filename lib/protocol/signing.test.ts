import { describe, expect, it } from "vitest";
import vectors from "./test-vectors.json";
import { bodyMd5, signRequest, signString, verifySignature } from "./signing";

// The published vectors (section 5) are what downstream integrators test
// their own signing against; our implementation must reproduce every one.
describe("signing matches the published test vectors", () => {
  it("covers an empty body, a non-ASCII body and a CRLF body", () => {
    const bodies = vectors.vectors.map((v) => v.body);
    expect(bodies).toContain("");
    // eslint-disable-next-line no-control-regex -- "anything outside ASCII" starts at \x00
    expect(bodies.some((b) => /[^\x00-\x7f]/.test(b))).toBe(true);
    expect(bodies.some((b) => b.includes("\r\n"))).toBe(true);
  });

  for (const v of vectors.vectors) {
    it(v.name, () => {
      expect(bodyMd5(v.body)).toBe(v.body_md5);
      expect(signString(v)).toBe(v.sign_string);
      expect(signRequest(v)).toBe(v.signature);
      expect(verifySignature({ ...v, signature: v.signature })).toBe(true);
    });
  }
});

describe("verifySignature", () => {
  const v = vectors.vectors[2];

  it("rejects an upper-case hex signature of the right value (D6)", () => {
    expect(verifySignature({ ...v, signature: v.signature.toUpperCase() })).toBe(false);
  });

  it("rejects a wrong secret, a tampered body, another path and another timestamp", () => {
    expect(verifySignature({ ...v, secret: v.secret + "x", signature: v.signature })).toBe(false);
    expect(verifySignature({ ...v, body: v.body.replace("1}", "2}"), signature: v.signature })).toBe(false);
    expect(verifySignature({ ...v, path: v.path.replace("/api", ""), signature: v.signature })).toBe(false);
    expect(verifySignature({ ...v, timestamp: Number(v.timestamp) + 1, signature: v.signature })).toBe(false);
  });

  it("rejects malformed signatures without throwing", () => {
    for (const s of ["", "abc", v.signature.slice(0, 63), v.signature + "0", "g".repeat(64)]) {
      expect(verifySignature({ ...v, signature: s })).toBe(false);
    }
  });

  it("hashes bytes, not characters: a Uint8Array body signs like its UTF-8 text", () => {
    const nonAscii = vectors.vectors[3];
    expect(signRequest({ ...nonAscii, body: Buffer.from(nonAscii.body, "utf8") })).toBe(nonAscii.signature);
  });

  it("signs the path without its query string", () => {
    expect(signRequest({ ...v, path: v.path + "?page=2" })).toBe(v.signature);
  });
});
