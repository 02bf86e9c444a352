import { describe, expect, it } from "vitest";
import { wantsPretty } from "../log";
import { startBanner } from "./seed-on-start";

describe("issue 10.7: the start banner and the log format", () => {
  it("the banner names the console URL and the API base URLs of both profiles, then the first-start lines", () => {
    const lines = startBanner("http://localhost:3000/", ["Demo API key:    abc"]);
    expect(lines.join("\n")).toContain("http://localhost:3000/admin");
    for (const p of ["/v1/upstream", "/api/v1/upstream", "/v1/provider", "/api/v1/provider"])
      expect(lines.join("\n")).toContain(`http://localhost:3000${p}`);
    expect(lines.at(-1)).toBe("Demo API key:    abc");
  });

  it("logs are JSON unless stdout is a terminal; LOG_FORMAT overrides", () => {
    expect(wantsPretty({}, false)).toBe(false);
    expect(wantsPretty({}, true)).toBe(true);
    expect(wantsPretty({ LOG_FORMAT: "json" }, true)).toBe(false);
    expect(wantsPretty({ LOG_FORMAT: "pretty" }, false)).toBe(true);
  });
});
