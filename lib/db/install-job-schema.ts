import pg from "pg";
import { runMigrations } from "graphile-worker";
import { workerLogger } from "./worker-logger";

// Any constant works; it only has to differ from other advisory locks we take.
const INSTALL_LOCK_KEY = 774_201_001;

/**
 * Installs or upgrades graphile-worker's own schema (`graphile_worker`), which
 * is managed by the library's migrations, not by Prisma's. Called by the
 * migration runner (so `npm start`, `npm run migrate` and the test template
 * get it before anything can enqueue a job) and again at worker start.
 * An advisory lock serialises processes that start at the same moment.
 * It lives in the database layer, beside the Prisma migrations, because it
 * is part of the schema: lib/jobs uses it, lib/db imports nothing above it.
 */
export async function installJobSchema(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [INSTALL_LOCK_KEY]);
    await runMigrations({ connectionString, logger: workerLogger });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [INSTALL_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
