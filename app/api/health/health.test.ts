import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";

describe("GET /api/health", () => {
  let up: AppServer;

  beforeAll(async () => {
    up = await startAppServer(await useTestDatabase());
  });
  afterAll(async () => {
    await up?.stop();
  });

  it("answers 200 when the database is reachable", async () => {
    const res = await fetch(`${up.baseUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, database: "up" });
  });

  it("answers 503 when the database is not reachable", async () => {
    // A server pointed at a port nothing listens on (startAppServer waits for
    // 200, so this one is started by hand).
    const { status, body } = await probeWithDeadDatabase();
    expect(status).toBe(503);
    expect(body).toEqual({ ok: false, database: "down" });
  });

  async function probeWithDeadDatabase() {
    const { spawn } = await import("node:child_process");
    const { freePort } = await import("@/lib/testing/app-server");
    const port = await freePort();
    const deadPort = await freePort();
    const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...process.env, NODE_ENV: "production", DATABASE_URL: `postgresql://x:y@127.0.0.1:${deadPort}/none` },
      stdio: "ignore",
    });
    try {
      for (let i = 0; i < 200; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/health`);
          return { status: res.status, body: (await res.json()) as unknown };
        } catch {
          await new Promise((r) => setTimeout(r, 150));
        }
      }
      throw new Error("server never listened");
    } finally {
      child.kill("SIGKILL");
    }
  }
});
