import pg from "pg";
import { APPLIED_MIGRATIONS_SQL, pendingMigrations } from "./migration-state";
import { installJobSchema } from "./install-job-schema";

/**
 * The CLI's migration step: the schema engine (WebAssembly) only when a
 * migration on disk is not applied yet. Loading it costs a CLI process about
 * 150 MB of memory it never gives back, which a million-key
 * `catalog:import` cannot spare (issue 13.3: under 300 MB). `npm start` and
 * `npm run migrate` still run the engine every time.
 */
export async function applyPendingMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let applied: string[] | undefined;
  try {
    applied = (await client.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL)).rows.map((r) => r.migration_name);
  } catch {
    // No _prisma_migrations yet: a new database.
  } finally {
    await client.end();
  }
  if (applied && pendingMigrations(applied).length === 0) return installJobSchema(url);
  const { applyMigrations } = await import("./migrate");
  await applyMigrations(url);
}
