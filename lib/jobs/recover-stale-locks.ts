import crypto from "node:crypto";
import os from "node:os";
import pg from "pg";
import { log } from "../log";

/**
 * Liveness of workers, kept by PostgreSQL itself. graphile-worker 0.16 frees
 * the jobs of a crashed worker only after 4 hours. Each of our workers holds
 * a session advisory lock named after its worker id on a connection of its
 * process; when the process dies (even kill -9) PostgreSQL ends the session
 * and drops the lock. A job locked by a worker whose lock is free therefore
 * belongs to a dead process and is released at once (force_unlock_workers),
 * so another worker retries it. Handlers are idempotent, so a retry is safe.
 */
const LIVENESS_NAMESPACE = 774_201_002;

export function newWorkerId(index: number): string {
  return `${os.hostname()}-${process.pid}-${index}-${crypto.randomBytes(4).toString("hex")}`;
}

/** Takes the liveness lock of each id on `client` (a connection held for the worker's life). */
export async function holdLivenessLocks(client: pg.ClientBase, workerIds: string[]): Promise<void> {
  for (const id of workerIds) {
    const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok", [LIVENESS_NAMESPACE, id]);
    // Two live ids hashing alike is improbable; refuse rather than share a lock.
    if (!rows[0].ok) throw new Error(`worker liveness lock for ${id} is taken`);
  }
}

/** Releases jobs (and queues) locked by workers that are no longer alive. Returns the dead worker ids. */
export async function recoverStaleLocks(pool: pg.Pool, ownWorkerIds: string[] = []): Promise<string[]> {
  const client = await pool.connect();
  const dead: string[] = [];
  try {
    const { rows } = await client.query<{ locked_by: string }>(
      `SELECT DISTINCT locked_by FROM graphile_worker.jobs WHERE locked_by IS NOT NULL
       UNION SELECT DISTINCT locked_by FROM graphile_worker._private_job_queues WHERE locked_by IS NOT NULL`,
    );
    for (const { locked_by: id } of rows) {
      if (ownWorkerIds.includes(id)) continue;
      const { rows: got } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok", [
        LIVENESS_NAMESPACE,
        id,
      ]);
      if (!got[0].ok) continue; // its process is alive
      await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LIVENESS_NAMESPACE, id]);
      await client.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [[id]]);
      dead.push(id);
    }
  } finally {
    client.release();
  }
  if (dead.length) log.warn({ component: "jobs", deadWorkers: dead }, "released jobs of workers that died");
  return dead;
}
