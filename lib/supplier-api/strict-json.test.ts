import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { firstDuplicateTopLevelKey, parseJsonObject } from "./strict-json";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as AppError).code;
  }
}

describe("strict JSON for Profile P (D17)", () => {
  it("finds duplicated top-level keys, including escaped spellings of the same key", () => {
    expect(firstDuplicateTopLevelKey('{"a":1,"b":2,"a":3}')).toBe("a");
    expect(firstDuplicateTopLevelKey('{"a":1,"\\u0061":2}')).toBe("a");
    expect(firstDuplicateTopLevelKey(' { "x" : "a\\"b" , "y" : "x" } ')).toBeUndefined();
  });

  it("ignores duplicates below the top level and keys inside strings", () => {
    expect(firstDuplicateTopLevelKey('{"a":{"k":1,"k":2},"b":[{"a":1},{"a":2}]}')).toBeUndefined();
    expect(firstDuplicateTopLevelKey('{"a":"\\"a\\":","b":"{\\"a\\":1}"}')).toBeUndefined();
    expect(firstDuplicateTopLevelKey('{"a":[1,{"z":[]}],"c":{},"d":[],"a":0}')).toBe("a");
  });

  it("maps errors per profile: P invalid_json / bad_request, U bad_request", () => {
    expect(codeOf(() => parseJsonObject('{"a":1,"a":2}', "P"))).toBe("invalid_json");
    expect(codeOf(() => parseJsonObject("{nope", "P"))).toBe("invalid_json");
    expect(codeOf(() => parseJsonObject("[1]", "P"))).toBe("bad_request");
    expect(codeOf(() => parseJsonObject("null", "P"))).toBe("bad_request");
    expect(codeOf(() => parseJsonObject('"x"', "P"))).toBe("bad_request");
    expect(codeOf(() => parseJsonObject("{nope", "U"))).toBe("bad_request");
    expect(codeOf(() => parseJsonObject("7", "U"))).toBe("bad_request");
    // Profile U has no duplicate-key rule: the last value wins.
    expect(parseJsonObject('{"a":1,"a":2}', "U")).toEqual({ a: 2 });
    expect(parseJsonObject('\r\n{"a":"中"}\r\n', "P")).toEqual({ a: "中" });
  });
});
