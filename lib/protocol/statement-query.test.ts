import { describe, expect, it } from "vitest";
import { parseTimeParam, StatementQuerySchema } from "./statement-query";

// The statement's query (docs/decisions/0019-balance-statement.md): paging as
// D10, from/to as RFC 3339 or Unix seconds.

const iso = (t: string) => parseTimeParam(t)?.toISOString() ?? null;

describe("statement query: from and to", () => {
  it("accepts RFC 3339 with Z or an offset, and Unix seconds", () => {
    expect(iso("2026-11-22T10:00:00Z")).toBe("2026-11-22T10:00:00.000Z");
    expect(iso("2026-11-22T18:00:00.250+08:00")).toBe("2026-11-22T10:00:00.250Z");
    expect(iso("1795341600")).toBe("2026-11-22T10:00:00.000Z");
    expect(iso("0")).toBe("1970-01-01T00:00:00.000Z");
  });

  it("rounds digits finer than the stored millisecond up, so from stays inclusive and to exclusive of the exact rows", () => {
    expect(iso("2026-11-22T10:00:00.1230Z")).toBe("2026-11-22T10:00:00.123Z");
    expect(iso("2026-11-22T10:00:00.1230001Z")).toBe("2026-11-22T10:00:00.124Z");
  });

  it("clamps instants no row can have into 1970..9999, which filters exactly the same rows", () => {
    expect(iso("0001-01-01T00:00:00+01:00")).toBe("1970-01-01T00:00:00.000Z");
    expect(iso("999999999999")).toBe("9999-12-31T23:59:59.999Z");
  });

  it("refuses anything else", () => {
    for (const t of [
      "",
      "yesterday",
      "2026-02-30T00:00:00Z",
      "2026-11-22T10:00:00",
      "2026-11-22",
      "2026-11-22 10:00:00Z",
      "-5",
      "1.5",
      "1e9",
      "1234567890123",
      "\u0000",
    ]) {
      expect(parseTimeParam(t), JSON.stringify(t)).toBeNull();
    }
  });
});

describe("statement query: the profiles", () => {
  it("P: defaults like products (page 1, page_size 50); an inverted window is a 400 on to", () => {
    expect(StatementQuerySchema.P.parse({})).toEqual({ page: 1, page_size: 50, from: undefined, to: undefined });
    const r = StatementQuerySchema.P.safeParse({ from: "1795341600", to: "1795341599" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(["to"]);
    expect(StatementQuerySchema.P.safeParse({ from: "1795341600", to: "1795341600" }).success).toBe(true); // empty, not wrong
  });

  it("U: malformed values are absent, out-of-range ones clamped", () => {
    expect(StatementQuerySchema.U.parse({ page: "0", page_size: "500", from: "nope", to: "2026-11-22T10:00:00Z" })).toEqual({
      page: 1,
      page_size: 100,
      from: undefined,
      to: new Date("2026-11-22T10:00:00Z"),
    });
  });
});
