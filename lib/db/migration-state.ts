import fs from "node:fs";
import path from "node:path";

/**
 * The schema version is the list of migrations applied (Prisma's
 * `_prisma_migrations`). Used by /api/health/ready (are they current?) and by
 * backups (which version an archive holds; a restore refuses a newer one).
 */
export function migrationsOnDisk(root = process.cwd()): string[] {
  // turbopackIgnore: read at run time from the checkout, not a build input.
  const dir = path.join(/*turbopackIgnore: true*/ root, "prisma", "migrations");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The SQL listing migrations that finished and were not rolled back. */
export const APPLIED_MIGRATIONS_SQL = `SELECT migration_name FROM _prisma_migrations
  WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`;

/** Migrations on disk that the database has not applied. */
export function pendingMigrations(applied: string[], onDisk = migrationsOnDisk()): string[] {
  const done = new Set(applied);
  return onDisk.filter((m) => !done.has(m));
}

/** Applied migrations this code does not know: the database is from a newer version. */
export function unknownMigrations(applied: string[], onDisk = migrationsOnDisk()): string[] {
  const known = new Set(onDisk);
  return applied.filter((m) => !known.has(m));
}
