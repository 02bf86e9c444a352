import crypto from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

const pbkdf2 = promisify(crypto.pbkdf2);

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

describe("issue 22.3: scrypt does not take the whole thread pool", () => {
  it(
    "issue 22.3: a burst of password checks runs at most 2 scrypt at once, so other thread-pool work (gzip, file reads) is not held up",
    { timeout: 120_000 },
    async () => {
      const hash = await hashPassword("correct horse battery");
      let started = Date.now();
      await verifyPassword("warm-up", hash);
      const oneScryptMs = Date.now() - started;

      // Six sign-ins at once (from six addresses, past any per-address throttle): with 4 pool threads, unbounded, they would hold all four.
      const burst = Array.from({ length: 6 }, (_, i) => verifyPassword(i === 0 ? "correct horse battery" : `guess ${i}`, hash));
      await new Promise((r) => setTimeout(r, 20));
      started = Date.now();
      await pbkdf2("other work", "salt", 1, 32, "sha256"); // microseconds of work, queued on the same pool
      const otherWorkMs = Date.now() - started;
      expect(await Promise.all(burst)).toEqual([true, false, false, false, false, false]);
      // Unbounded, it waits until a scrypt ends (about one scrypt's time); bounded, a thread is free at once.
      expect(otherWorkMs).toBeLessThan(oneScryptMs / 2);
    },
  );
});
