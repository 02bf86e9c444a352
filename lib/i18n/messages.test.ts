import { describe, expect, it } from "vitest";
import { defineMessages } from "./define-messages";
import { MESSAGE_TABLES, MESSAGES } from "./messages";

describe("console texts split by screen (issue 9.5)", () => {
  it("issue 9.5: every key lives in exactly one screen's table, so no table silently overrides another", () => {
    const seen = new Map<string, number>();
    for (const table of MESSAGE_TABLES) for (const k of Object.keys(table.en)) seen.set(k, (seen.get(k) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    expect(seen.size).toBe(Object.keys(MESSAGES.en).length);
  });

  it("issue 9.5: each screen's Chinese table has exactly its English keys", () => {
    for (const table of MESSAGE_TABLES) expect(Object.keys(table.zhCN).sort()).toEqual(Object.keys(table.en).sort());
  });

  it("issue 9.5: a missing or an extra translation is a compile error (checked by npm run typecheck)", () => {
    // @ts-expect-error the Chinese table lacks "x.b"
    const missing = defineMessages({ "x.a": "A", "x.b": "B" }, { "x.a": "甲" });
    // @ts-expect-error the Chinese table has a key English does not
    const extra = defineMessages({ "x.a": "A" }, { "x.a": "甲", "x.c": "丙" });
    expect([Object.keys(missing.zhCN), Object.keys(extra.zhCN)]).toEqual([["x.a"], ["x.a", "x.c"]]);
  });
});
