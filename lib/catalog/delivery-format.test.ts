import { describe, expect, it } from "vitest";
import { checkCardKey, checkDelimiter } from "./delivery-format";

// D14 and docs/decisions/0001-delivery-formats.md: keys are checked against
// the delivery format when they enter stock, and a reason never quotes the key.

describe("card keys are checked against the delivery format (D14)", () => {
  it("text: any single non-empty line, trimmed", () => {
    expect(checkCardKey("  ABC-123 ", "text")).toEqual({ ok: true, key: "ABC-123" });
    expect(checkCardKey("a----b----c", "text").ok).toBe(true);
    expect(checkCardKey("   ", "text").ok).toBe(false);
    expect(checkCardKey("line1\nline2", "text").ok).toBe(false);
    expect(checkCardKey("x".repeat(1025), "text").ok).toBe(false);
  });

  it("account_password: exactly two non-empty parts", () => {
    expect(checkCardKey("user----pass", "account_password").ok).toBe(true);
    expect(checkCardKey("user|pass", "account_password", "|").ok).toBe(true);
    expect(checkCardKey("userpass", "account_password").ok).toBe(false);
    expect(checkCardKey("user----", "account_password").ok).toBe(false);
    expect(checkCardKey("a----b----c", "account_password").ok).toBe(false);
    expect(checkCardKey("user|pass", "account_password").ok).toBe(false); // wrong delimiter
  });

  it("card_password: card number without spaces and a password", () => {
    expect(checkCardKey("6200000000000001----123456", "card_password").ok).toBe(true);
    expect(checkCardKey("6200 0000----123456", "card_password").ok).toBe(false);
    expect(checkCardKey("6200000000000001", "card_password").ok).toBe(false);
  });

  it("apple_account: an Apple ID (e-mail), a password, up to six extra parts", () => {
    expect(checkCardKey("me@icloud.com----pw", "apple_account").ok).toBe(true);
    expect(checkCardKey("me@icloud.com----pw----1990-01-01----q1----a1", "apple_account").ok).toBe(true);
    expect(checkCardKey("not-an-email----pw", "apple_account").ok).toBe(false);
    expect(checkCardKey("me@icloud.com", "apple_account").ok).toBe(false);
    expect(checkCardKey("me@icloud.com----pw----", "apple_account").ok).toBe(false);
    expect(checkCardKey(["me@icloud.com", ..."pqrstuvw"].join("----"), "apple_account").ok).toBe(false);
  });

  it("a reason never contains the key", () => {
    const secret = "SECRET-KEY-VALUE";
    for (const format of ["account_password", "card_password", "apple_account"] as const) {
      const check = checkCardKey(secret, format);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.reason).not.toContain(secret);
    }
  });

  it("delimiters must be short, non-blank single-line strings", () => {
    expect(checkDelimiter("----")).toBeUndefined();
    expect(checkDelimiter("|")).toBeUndefined();
    expect(checkDelimiter(" ")).toBeDefined();
    expect(checkDelimiter("\n")).toBeDefined();
    expect(checkDelimiter("-".repeat(17))).toBeDefined();
  });
});
