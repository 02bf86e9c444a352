import { describe, expect, it } from "vitest";
import { parseCommand } from "./parse-command";
import { usageError } from "../../lib/testing/cli-usage-error";

// Issue 26.3: the after-sales CLI commands check their arguments before the database is touched.

describe("after-sales CLI arguments (issue 26.3)", () => {
  it("issue 26.3: claim:resolve takes exactly one of --replace, --refund, --reject; --reject needs --reason", () => {
    expect(parseCommand(["claim:resolve", "--id", "12", "--refund"]).input).toMatchObject({ id: 12, action: "refund" });
    expect(parseCommand(["claim:resolve", "--id", "3", "--reject", "--reason", " used "]).input).toMatchObject({
      id: 3,
      action: "reject",
      reason: "used",
    });
    expect(usageError(["claim:resolve", "--id", "3", "--refund", "--replace"])).toMatch(/exactly one of --replace, --refund, --reject/);
    expect(usageError(["claim:resolve", "--id", "3"])).toMatch(/exactly one/);
    expect(usageError(["claim:resolve", "--id", "3", "--reject"])).toMatch(/--reason/);
    expect(usageError(["claim:resolve", "--id", "0", "--refund"])).toMatch(/--id: must be a claim id/);
  });

  it("issue 26.3: claim:list filters by a known state only; order:refund takes lines or an amount above 0.00, not both", () => {
    expect(parseCommand(["claim:list", "--state", "open"]).input).toEqual({ state: "open" });
    expect(usageError(["claim:list", "--state", "closed"])).toMatch(/--state/);
    expect(parseCommand(["order:refund", "--order-no", "SK1", "--lines", "0,2", "--reason", "bad keys"]).input).toMatchObject({
      lines: [0, 2],
    });
    expect(parseCommand(["order:refund", "--order-no", "SK1", "--amount", "1.5", "--reason", "late"]).input).toMatchObject({
      amount: "1.5",
    });
    expect(usageError(["order:refund", "--order-no", "SK1", "--amount", "0.00", "--reason", "x"])).toMatch(
      /--amount: must be an amount above 0.00/,
    );
    expect(usageError(["order:refund", "--order-no", "SK1", "--amount", "1.00", "--lines", "0", "--reason", "x"])).toMatch(
      /either --lines or --amount/,
    );
    expect(usageError(["order:refund", "--order-no", "SK1", "--lines", "a", "--reason", "x"])).toMatch(/--lines: must be line numbers/);
  });

  it("issue 26.3: product:after-sales takes a product id and whole hours from 0 (no after-sales) to 8760", () => {
    expect(parseCommand(["product:after-sales", "--product", "7", "--hours", "0"]).input).toEqual({ product: 7, hours: 0 });
    expect(parseCommand(["product:after-sales", "--product", "7", "--hours", " 72 "]).input).toEqual({ product: 7, hours: 72 });
    for (const [hours, message] of [
      ["-1", /--hours: must be a whole number of hours/],
      ["1.5", /--hours: must be a whole number of hours/],
      ["x", /--hours: must be a whole number of hours/],
      ["8761", /--hours: must be at most 8760/],
    ] as const) {
      expect(usageError(["product:after-sales", "--product", "7", "--hours", hours])).toMatch(message);
    }
    expect(usageError(["product:after-sales", "--product", "7"])).toMatch(/--hours is required/);
    expect(usageError(["product:after-sales", "--product", "0", "--hours", "1"])).toMatch(/--product: must be a positive whole number/);
  });

  it("issue 33.4: product:after-sales takes, beside the window, --replaces: whole replacements per line from 0 (refund only) to 100", () => {
    expect(parseCommand(["product:after-sales", "--product", "7", "--hours", "24", "--replaces", "0"]).input).toEqual({
      product: 7,
      hours: 24,
      replaces: 0,
    });
    expect(parseCommand(["product:after-sales", "--product", "7", "--hours", "24", "--replaces", " 3 "]).input).toMatchObject({
      replaces: 3,
    });
    expect(parseCommand(["product:after-sales", "--product", "7", "--hours", "24"]).input).toEqual({ product: 7, hours: 24 });
    for (const [replaces, message] of [
      ["-1", /--replaces: must be a whole number of replacements/],
      ["1.5", /--replaces: must be a whole number of replacements/],
      ["101", /--replaces: must be at most 100/],
    ] as const) {
      expect(usageError(["product:after-sales", "--product", "7", "--hours", "24", "--replaces", replaces])).toMatch(message);
    }
  });
});
