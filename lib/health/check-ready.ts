import { env } from "../config/env";
import { db } from "../db/client";
import { isStopping } from "../ops/stop-state";
import { APPLIED_MIGRATIONS_SQL, pendingMigrations } from "../db/migration-state";

export interface Readiness {
  ok: boolean;
  database: "up" | "down";
  migrations: "current" | "pending" | "unknown";
  worker: "running" | "down" | "external";
}

/** Issue 27.3: from the first stop signal until the port closes (decision 0040). */
export interface Stopping {
  ok: false;
  stopping: true;
}

const g = globalThis as unknown as { __cardkeyWorker?: Promise<unknown> };

/**
 * Ready to take traffic (issue 10 item 7): the database answers, every
 * migration on disk is applied, and the in-server job worker runs unless
 * WORKER_IN_SERVER=false hands jobs to `npm run worker` processes. The worker
 * handle lives on globalThis (lib/worker/run-in-server.ts), shared with
 * instrumentation in this one `next start` process. A server that has begun
 * to stop is not ready, whatever else holds, so a balancer sends elsewhere
 * before its port closes (issue 27.3).
 */
export async function checkReady(timeoutMs = 2000): Promise<Readiness | Stopping> {
  if (isStopping()) return { ok: false, stopping: true };
  const applied = await withTimeout(
    db()
      .$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_MIGRATIONS_SQL)
      .then((rows) => rows.map((r) => r.migration_name)),
    timeoutMs,
  ).catch(() => undefined);
  const database = applied ? "up" : "down";
  const migrations = !applied ? "unknown" : pendingMigrations(applied).length ? "pending" : "current";
  let worker: Readiness["worker"] = "external";
  if (env().WORKER_IN_SERVER) {
    const handle = g.__cardkeyWorker ? await withTimeout(g.__cardkeyWorker, timeoutMs).catch(() => undefined) : undefined;
    worker = handle ? "running" : "down";
  }
  return { ok: database === "up" && migrations === "current" && worker !== "down", database, migrations, worker };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timeout")), ms).unref())]);
}
