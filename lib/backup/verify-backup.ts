import { existingSecretKey } from "../crypto/secrets";
import { appError } from "../errors";
import { pendingMigrations, unknownMigrations } from "../db/migration-state";
import type { ArchiveKeys } from "./archive-crypto";
import { readArchive } from "./read-archive";

/**
 * Checks an archive without restoring it (issue 10 item 3, issue 22 item 4):
 * every age chunk's tag, the manifest's HMAC under SECRET_KEY, every table's
 * size, row count and SHA-256, and whether this version of the code can
 * restore its schema version. Needs SECRET_KEY (the variable or DATA_DIR's
 * file), which it never generates: without it nothing can be authenticated.
 */
export async function verifyBackup(opts: { in: string; keys?: ArchiveKeys }) {
  const secretKey = existingSecretKey();
  if (!secretKey)
    throw appError("conflict", "backup:verify needs SECRET_KEY (or DATA_DIR's secret-key file): the archive is authenticated with it");
  const manifest = await readArchive(opts.in, { secretKey, keys: opts.keys });
  const newer = unknownMigrations(manifest.migrations);
  if (newer.length)
    throw appError(
      "conflict",
      `the archive is from a newer schema (${newer.length} unknown migration(s), first ${newer[0]}): this version cannot restore it`,
    );
  return {
    file: opts.in,
    ok: true,
    createdAt: manifest.createdAt,
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    schema: manifest.migrations.at(-1),
    migrationsPendingAfterRestore: pendingMigrations(manifest.migrations).length,
  };
}
