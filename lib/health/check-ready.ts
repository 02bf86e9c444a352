import { env } from "../config/env";
import { db } from "../db/client";
import { APPLIED_MIGRATIONS_SQL, pendingMigrations } from "../db/migration-state";

export interface Readiness {
  ok: boolean;
  database: "up" | "down";
  migrations: "current" | "pending" | "unknown";
  worker: "running" | "down" | "external";
}

const g = globalThis as unknown as { __cardkeyWorker?: Promise<unknown> };

/**
 * Ready to take traffic (issue 10 item 7): the database answers, every
 * migration on disk is applied, and the in-server job worker runs unless
 * WORKER_IN_SERVER=false hands jobs to `npm run worker` processes. The worker
 * handle lives on globalThis (lib/jobs/run-in-server.ts), shared with
 * instrumentation in this one `next start` process.
 */
export async function checkReady(timeoutMs = 2000): Promise<Readiness> {
  const applied = await withTimeout(
    db().$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_MIGRATIONS_SQL).then((rows) => rows.map((r) => r.migration_name)),
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
