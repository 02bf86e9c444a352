import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { useTestDatabase } from "@/lib/testing/test-database";

// Issue 10 item 7: liveness and readiness beside /api/health.

let server: AppServer;
let withWorker: AppServer;
beforeAll(async () => {
  const url = await useTestDatabase();
  [server, withWorker] = await Promise.all([startAppServer(url), startAppServer(url, { WORKER_IN_SERVER: "true" })]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), withWorker?.stop()]);
});

const get = async (s: AppServer, path: string) => {
  const res = await fetch(`${s.baseUrl}${path}`);
  return { status: res.status, body: (await res.json()) as unknown };
};

describe("issue 10.7: /api/health/live and /api/health/ready", () => {
  it("live answers 200 while the process runs", async () => {
    expect(await get(server, "/api/health/live")).toEqual({ status: 200, body: { ok: true } });
  });

  it("ready: database up, migrations current, worker external when WORKER_IN_SERVER=false", async () => {
    expect(await get(server, "/api/health/ready")).toEqual({
      status: 200,
      body: { ok: true, database: "up", migrations: "current", worker: "external" },
    });
  });

  it("ready: the in-server worker is reported running when configured", async () => {
    expect((await get(withWorker, "/api/health/ready")).body).toMatchObject({ ok: true, worker: "running" });
  });

  it("ready answers 503 'pending' when a migration on disk is not applied, and /api/health stays 200", async () => {
    const [last] = await db().$queryRaw<
      { migration_name: string }[]
    >`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await db().$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${last.migration_name}`;
    try {
      expect(await get(server, "/api/health/ready")).toMatchObject({ status: 503, body: { ok: false, migrations: "pending" } });
      expect((await get(server, "/api/health")).status).toBe(200);
    } finally {
      await db().$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ${last.migration_name}`;
    }
  });
});
