import { describe, expect, it } from "vitest";
import { wantsPretty } from "../log";
import { printBox, startBanner } from "./seed-on-start";

describe("issue 10.7: the start banner and the log format", () => {
  it("the banner names the console URL and the API base URLs of both profiles, then the first-start lines", () => {
    const lines = startBanner("http://localhost:3000/", ["Demo API key:    abc"]);
    expect(lines.join("\n")).toContain("http://localhost:3000/admin");
    for (const p of ["/v1/upstream", "/api/v1/upstream", "/v1/provider", "/api/v1/provider"])
      expect(lines.join("\n")).toContain(`http://localhost:3000${p}`);
    expect(lines.at(-1)).toBe("Demo API key:    abc");
  });

  it("issue 35.5: the boxed banner fits 80 columns; without first-start lines it says how to reset a lost admin password", () => {
    const boxed = (lines: string[]) => {
      let out = "";
      printBox(lines, { write: (s: string) => (out += s) } as unknown as NodeJS.WritableStream);
      return out.split("\n").filter(Boolean);
    };
    const firstStart = [
      `Demo API secret: ${"x".repeat(43)}`,
      `Admin password:  ${"p".repeat(20)}  (change it at the first sign-in)`,
      "",
      "Shown once. Store them now: secrets are kept only encrypted or hashed.",
    ];
    const first = boxed(startBanner("http://localhost:43210", firstStart));
    const later = boxed(startBanner("http://localhost:43210", []));
    for (const line of [...first, ...later]) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(later.join("\n")).toMatch(/Lost password\?\s+npm run cli -- admin:password --email E --password-stdin/);
    expect(first.join("\n")).not.toContain("Lost password");
  });

  it("logs are JSON unless stdout is a terminal; LOG_FORMAT overrides", () => {
    expect(wantsPretty({}, false)).toBe(false);
    expect(wantsPretty({}, true)).toBe(true);
    expect(wantsPretty({ LOG_FORMAT: "json" }, true)).toBe(false);
    expect(wantsPretty({ LOG_FORMAT: "pretty" }, false)).toBe(true);
  });
});
