import { describe, expect, it } from "vitest";
import { parseCommand } from "./parse-command";
import { usageError } from "../../lib/testing/cli-usage-error";

// Issue 26.1: `sku:sources` checks its options before the database, and each
// problem names the option the operator typed (not the service's field).

const sources = (...args: string[]) => ["sku:sources", "--sku-code", "C1", ...args];

describe("sku:sources arguments (issue 26.1)", () => {
  it("issue 26.1: one change per run, its options required, and no option that would be ignored", () => {
    expect(parseCommand(sources()).input).toEqual({ "sku-code": "C1", change: null });
    expect(parseCommand(sources("--add-upstream", "--connection", "3", "--upstream-sku-id", "10", "--max-cost", "1.00")).input).toEqual({
      "sku-code": "C1",
      change: { op: "add-upstream", connectionId: 3, upstreamSkuId: 10, maxCostCents: 100n },
    });
    expect(parseCommand(sources("--move", "3", "--to", "2")).input).toMatchObject({ change: { op: "move", position: 3, to: 2 } });
    expect(usageError(sources("--remove", "1", "--policy", "cheapest"))).toMatch(/^give at most one change, not --remove and --policy/);
    expect(usageError(sources("--add-upstream", "--upstream-sku-id", "10"))).toMatch(/^--connection is required with --add-upstream/);
    expect(usageError(sources("--add-upstream", "--connection", "3"))).toMatch(/^--upstream-sku-id is required with --add-upstream/);
    expect(usageError(sources("--move", "2"))).toMatch(/^--to is required with --move/);
    // Without its change these would be dropped, and the run would print the list as if it had worked.
    expect(usageError(sources("--max-cost", "1.00"))).toMatch(/^--max-cost goes with --add-upstream/);
    expect(usageError(sources("--remove", "2", "--to", "1"))).toMatch(/^--to goes with --move/);
    expect(usageError(["sku:sources"])).toMatch(/^--sku-code is required/);
  });

  it("issue 26.1: a bad value names its option", () => {
    expect(usageError(sources("--policy", "fastest"))).toMatch(/^--policy: must be priority or cheapest/);
    expect(usageError(sources("--remove", "0"))).toMatch(/^--remove: positions start at 1/);
    expect(usageError(sources("--disable", "x"))).toMatch(/^--disable: must be a whole number/);
    expect(usageError(sources("--move", "2", "--to", "1.5"))).toMatch(/^--to: must be a whole number/);
    expect(usageError(sources("--add-upstream", "--connection", "abc", "--upstream-sku-id", "10"))).toMatch(/^--connection: /);
    expect(usageError(sources("--add-upstream", "--connection", "3", "--upstream-sku-id", "10", "--max-cost", "-1"))).toMatch(
      /^--max-cost: must be an amount with at most two decimals/,
    );
  });
});
