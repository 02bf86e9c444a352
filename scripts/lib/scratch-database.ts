import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * For a bench that runs the services in its own process: a scratch folder
 * (`prefix` in the system's temp folder) and the environment that points
 * connectDatabase at a scratch embedded PostgreSQL under it, or at
 * BENCH_DATABASE_URL's server when set. Call before importing lib/ (it reads
 * the environment once). Returns the folder, for the caller to remove.
 */
export function useScratchDatabase(prefix: string): string {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(scratch, 0o755); // as root the embedded PostgreSQL runs as user postgres
  if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else {
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = path.join(scratch, "data");
  }
  process.env.LOG_LEVEL ??= "warn";
  process.env.SECRET_KEY ??= "bench-secret-key-not-for-production-000000000000";
  process.env.NEXTAUTH_SECRET ??= "bench-nextauth-secret-not-for-production-0000000";
  return scratch;
}
