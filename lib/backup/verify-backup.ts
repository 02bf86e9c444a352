import { appError } from "../errors";
import { pendingMigrations, unknownMigrations } from "../health/migration-state";
import { readArchive } from "./read-archive";

/**
 * Checks an archive without restoring it (issue 10 item 3): gzip and tar
 * structure, the manifest, every table's size, row count and SHA-256, and
 * whether this version of the code can restore its schema version.
 */
export async function verifyBackup(file: string) {
  const manifest = await readArchive(file);
  const newer = unknownMigrations(manifest.migrations);
  if (newer.length) throw appError("conflict", `the archive is from a newer schema (${newer.length} unknown migration(s), first ${newer[0]}): this version cannot restore it`);
  return {
    file,
    ok: true,
    createdAt: manifest.createdAt,
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    schema: manifest.migrations.at(-1),
    migrationsPendingAfterRestore: pendingMigrations(manifest.migrations).length,
  };
}
