import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../lib/db/client";
import { useTestDatabase } from "../lib/testing/test-database";
import { runCli } from "../lib/testing/run-cli";

// Issue 22.10: the CLI's changes are audited like the console's (actor "cli",
// in the change's transaction), and `audit:list` prints the trail.

let url: string;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

describe("issue 22.10: the CLI and the audit trail", () => {
  beforeAll(async () => {
    url = await useTestDatabase();
  });

  it("issue 22.10: CLI user:create, points:adjust, apikey:create and apikey:disable each leave an audit row with actor kind cli", async () => {
    const created = await cli("user:create", "--email", "cli-22@example.test", "--points", "10.00");
    expect(created.code).toBe(0);
    expect((await cli("points:adjust", "--email", "cli-22@example.test", "--amount", "-2.50", "--reason", "correction")).json).toEqual({
      balance: "7.50",
    });
    const key = await cli<{ api_key: string; api_secret: string }>("apikey:create", "--email", "cli-22@example.test", "--name", "shop");
    expect(key.code).toBe(0);
    expect((await cli("apikey:disable", "--key", key.json.api_key)).json).toEqual({ ok: true });

    const rows = await db().auditLog.findMany({
      where: { action: { in: ["user.create", "points.adjust", "api_key.create", "api_key.disable"] } },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => [r.action, r.actor, r.adminUserId])).toEqual([
      ["user.create", "cli", null],
      ["points.adjust", "cli", null],
      ["api_key.create", "cli", null],
      ["api_key.disable", "cli", null],
    ]);
    expect(JSON.stringify(rows.map((r) => r.details))).not.toContain(key.json.api_secret);
  });

  it("issue 22.10: audit:list prints the rows newest first as one JSON line; --since and --limit narrow it; a bad limit writes nothing (exit 2)", async () => {
    const all = await cli<{ rows: { id: string }[] }>("audit:list");
    expect(all.code).toBe(0);
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(1);
    const ids = all.json.rows.map((r: { id: string }) => BigInt(r.id));
    expect(ids.length).toBe(await db().auditLog.count());
    expect(ids).toEqual([...ids].sort((a: bigint, b: bigint) => (a < b ? 1 : -1)));
    expect(all.json.rows[0]).toMatchObject({ actor: "cli", action: "api_key.disable", target_type: "api_credential" });

    expect(
      (await cli<{ rows: { action: string }[] }>("audit:list", "--limit", "2")).json.rows.map((r: { action: string }) => r.action),
    ).toEqual(["api_key.disable", "api_key.create"]);
    const future = await cli("audit:list", "--since", "2999-01-01T00:00:00Z");
    expect(future.json).toEqual({ rows: [] });
    const bad = await cli("audit:list", "--limit", "0");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/limit/);
  });
});
