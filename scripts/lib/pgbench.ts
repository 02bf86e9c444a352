// Issue 40.1: PostgreSQL's own ceiling on this machine, the yardstick of
// bench:orders: pgbench's built-in TPC-B-like script (16 clients, scale 10)
// against a database of its own in the same cluster the server uses, so the
// same settings, disk and cores (the bench runs it under its own affinity:
// `taskset -c 0,1` pins both). The database is dropped afterwards.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client } from "pg";

const run = promisify(execFile);
const DB = "bench_pgbench_tpcb";

export interface PgbenchResult {
  tps: number;
  clients: number;
  scale: number;
  seconds: number;
  latency_avg_ms: number | null;
}

/** libpq's environment for a postgresql:// URL, pointed at another database. */
function libpqEnv(url: URL, database: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PGHOST: url.hostname,
    PGPORT: url.port || "5432",
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: database,
  };
}

/** `adminUrl`: a role that may create databases (the embedded cluster's superuser). */
export async function runPgbench(adminUrl: string, { clients = 16, scale = 10, seconds = 10 } = {}): Promise<PgbenchResult> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const env = libpqEnv(new URL(adminUrl), DB);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
    await admin.query(`CREATE DATABASE ${DB}`);
    await run("pgbench", ["-i", "-q", "-s", String(scale)], { env, maxBuffer: 1 << 24 });
    // The load's dirty pages written now, not by a checkpoint in the middle of the measured run.
    await admin.query("CHECKPOINT");
    const { stdout } = await run("pgbench", ["-c", String(clients), "-j", "2", "-T", String(seconds), "-n"], { env, maxBuffer: 1 << 24 });
    const tps = Number(stdout.match(/^tps = ([\d.]+)/m)?.[1]);
    if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${stdout}`);
    const latency = Number(stdout.match(/^latency average = ([\d.]+) ms/m)?.[1]);
    return { tps: Math.round(tps * 100) / 100, clients, scale, seconds, latency_avg_ms: Number.isFinite(latency) ? latency : null };
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") {
      throw new Error("pgbench is not installed: apt-get install postgresql-client (Debian), or --pgbench-seconds 0 to skip it", {
        cause: err,
      });
    }
    throw err;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`).catch(() => undefined);
    await admin.end();
  }
}
