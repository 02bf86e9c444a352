import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand } from "./parse-command";
import { usageError } from "../../lib/testing/cli-usage-error";

// Issue 9.3: the CLI checks its arguments with the services' own schemas
// (lib/protocol/amount.ts, lib/protocol/ids.ts, lib/fulfillment, lib/points),
// before the database is touched. parseCommand never opens the database.

describe("CLI arguments use the services' rules (issue 9.3)", () => {
  it("issue 9.3: amounts take up to 15 whole digits like parseAmount and the console (the CLI's copy allowed 13), not 16", () => {
    const adjust = (amount: string) => ["points:adjust", "--email", "a@example.com", "--amount", amount, "--reason", "fix"];
    expect(parseCommand(adjust("-12345678901234.5")).input).toMatchObject({ amount: -1234567890123450n });
    expect(parseCommand(["user:create", "--email", "a@example.com", "--points", "999999999999999.99"]).input).toMatchObject({
      points: 99999999999999999n,
    });
    expect(usageError(adjust("1234567890123456"))).toMatch(/--amount: must be an amount with at most two decimals/);
    expect(usageError(adjust("-0.00"))).toMatch(/--amount: must not be zero/);
    expect(usageError(["user:create", "--email", "a@example.com", "--points", "-1.00"])).toMatch(/--points: must be a non-negative amount/);
  });

  it("issue 9.3 (D20): an id above the int4 range is bad input (exit 2), not a database error", () => {
    expect(parseCommand(["upstream:import", "--connection", "2147483647"]).input).toMatchObject({ connection: 2147483647 });
    expect(usageError(["upstream:import", "--connection", "2147483648"])).toMatch(/--connection: must be a positive whole number/);
    expect(usageError(["upstream:import", "--connection", "07"])).toMatch(/--connection: must be/);
  });

  it("issue 9.3 (D25): upstream:add checks --max-wait-seconds with the connection's own rule (at most 30 days)", () => {
    const add = (wait: string) => [
      "upstream:add",
      "--name",
      "up",
      "--base-url",
      "http://127.0.0.1:9",
      "--profile",
      "U",
      "--api-key",
      "k",
      "--api-secret",
      "s",
      "--max-wait-seconds",
      wait,
    ];
    expect(parseCommand(add("2592000")).input).toMatchObject({ "max-wait-seconds": 2592000 });
    expect(usageError(add("2592001"))).toMatch(/--max-wait-seconds: /);
    expect(usageError(add("1.5"))).toMatch(/--max-wait-seconds: must be an integer/);
  });

  it("issue 9.3: order:deliver refuses a payload with no lines before the database, like deliverOrder", () => {
    expect(usageError(["order:deliver", "--order-no", "SK1", "--payload", "  \n \r\n"])).toMatch(/--payload: has no lines to deliver/);
    expect(usageError(["order:fail", "--order-no", "SK1", "--reason", "x".repeat(201)])).toMatch(
      /--reason: must be at most 200 characters/,
    );
    expect(usageError(["order:fail", "--order-no", "SK1", "--reason", "   "])).toMatch(/--reason: is required/);
    expect(parseCommand(["order:fail", "--order-no", " SK1 ", "--reason", " out of codes "]).input).toEqual({
      "order-no": "SK1",
      reason: "out of codes",
    });
  });

  it("issue 22.9: catalog-event:list takes a known status (cancelled included) and a limit of 1 to 1000, checked before the database", () => {
    expect(parseCommand(["catalog-event:list", "--status", "cancelled", "--limit", "20"]).input).toEqual({
      status: "cancelled",
      limit: 20,
    });
    expect(parseCommand(["catalog-event:list"]).input).toEqual({ limit: 100 });
    expect(usageError(["catalog-event:list", "--status", "lost"])).toMatch(/--status: /);
    for (const limit of ["0", "1001", "-1", "1.5", "ten"])
      expect(usageError(["catalog-event:list", "--limit", limit])).toMatch(/--limit: must be a whole number from 1 to 1000/);
  });
});

describe("issue 22.8: secrets off the command line", () => {
  it("issue 22.8: upstream:add reads the API secret from --api-secret-file; --api-secret keeps working; both at once is refused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-secret-"));
    try {
      const file = path.join(dir, "secret");
      fs.writeFileSync(file, "-starts-with-a-dash and spaces\n", { mode: 0o600 });
      const add = (...secret: string[]) => [
        "upstream:add",
        "--name",
        "up",
        "--base-url",
        "http://127.0.0.1:9",
        "--profile",
        "U",
        "--api-key",
        "k",
        ...secret,
      ];
      expect(parseCommand(add("--api-secret-file", file)).input).toMatchObject({ "api-secret": "-starts-with-a-dash and spaces" });
      expect(parseCommand(add("--api-secret", "s")).input).toMatchObject({ "api-secret": "s" });
      expect(usageError(add("--api-secret", "s", "--api-secret-file", file))).toMatch(
        /give only one of --api-secret and --api-secret-file/,
      );
      expect(usageError(add("--api-secret-file", path.join(dir, "missing")))).toMatch(/--api-secret-file: cannot read .*missing: ENOENT/);
      fs.writeFileSync(path.join(dir, "empty"), "\n");
      expect(usageError(add("--api-secret-file", path.join(dir, "empty")))).toMatch(/--api-secret-file: .*empty is empty/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
