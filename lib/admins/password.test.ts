import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

describe("administrator passwords are stored only as scrypt hashes", () => {
  it("verifies the right password, refuses others, and salts every hash", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
    expect(await hashPassword("correct horse battery")).not.toBe(hash);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });
});
