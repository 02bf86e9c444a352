import { describe, expect, it } from "vitest";
import { parseArgs } from "node:util";
import { newApiSecret } from "./create-api-key";

describe("API secrets (D9)", () => {
  it("never start with '-', so they pass as a command-line flag's value", () => {
    // One base64url secret in 64 starts with "-": 4,000 draws would meet one
    // about 62 times if the rule were missing.
    const secrets = Array.from({ length: 4000 }, newApiSecret);
    expect(secrets.filter((s) => s.startsWith("-"))).toEqual([]);
    expect(new Set(secrets).size).toBe(secrets.length);
    for (const secret of secrets.slice(0, 50)) {
      expect(secret).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
      const { values } = parseArgs({ args: ["--api-secret", secret], options: { "api-secret": { type: "string" } } });
      expect(values["api-secret"]).toBe(secret);
    }
  });
});
