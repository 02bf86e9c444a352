import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { dbPool } from "./client";
import { onPool } from "./sql-rows";
import { useTestDatabase } from "../testing/test-database";

// Issue 28.1: a statement PostgreSQL refuses (place_order's RAISE for a
// refused order) must not cost the pool its connection: pool.query() closed
// it after any error, so every refused order opened a new one (a fork and a
// password exchange). A connection that is really lost still goes.

let url: string;
beforeAll(async () => {
  url = await useTestDatabase();
});

const backendPid = async () => Number((await onPool("SELECT pg_backend_pid() AS pid", []))[0].pid);

describe("onPool keeps connections across refused statements", () => {
  it("issue 28.1: 20 refused statements in a row run on the same connection, and it still answers", async () => {
    const before = await backendPid();
    for (let i = 0; i < 20; i++) {
      await expect(onPool("SELECT 1 / $1::int AS x", [0], "sql_rows_refused")).rejects.toMatchObject({ code: "22012" });
      // A raised refusal, as place_order sends one.
      await expect(
        onPool("DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'insufficient_stock'; END $$", []),
      ).rejects.toMatchObject({
        code: "P0001",
      });
    }
    expect(await backendPid()).toBe(before);
    expect(await onPool("SELECT 1 / $1::int AS x", [1], "sql_rows_refused")).toEqual([{ x: 1 }]);
  });

  it("issue 28.1: a connection the server closed is dropped, and the next statement gets a working one", async () => {
    const pid = await backendPid();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    } finally {
      await admin.end();
    }
    // The terminated session's next statement fails (or the pool already noticed and dropped it).
    await onPool("SELECT 1 AS one", []).catch(() => undefined);
    expect(await onPool("SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
    expect(await backendPid()).not.toBe(pid);
    expect(dbPool().totalCount).toBeGreaterThan(0);
  });
});
