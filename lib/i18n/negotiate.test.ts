import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages";
import { negotiateLocale } from "./negotiate";

describe("admin console language", () => {
  it("follows the cookie first, then the browser's Accept-Language by q-value, else English", () => {
    expect(negotiateLocale("zh-CN", "en-US")).toBe("zh-CN");
    expect(negotiateLocale("fr", "zh-TW,zh;q=0.9")).toBe("zh-CN");
    expect(negotiateLocale(undefined, "en;q=0.5, zh-CN;q=0.8")).toBe("zh-CN");
    expect(negotiateLocale(undefined, "de-DE, en-GB;q=0.7")).toBe("en");
    expect(negotiateLocale(undefined, null)).toBe("en");
  });

  it("has every text in both languages, none empty", () => {
    expect(Object.keys(MESSAGES["zh-CN"]).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    for (const table of Object.values(MESSAGES)) for (const [k, v] of Object.entries(table)) expect(v, k).not.toBe("");
  });
});
