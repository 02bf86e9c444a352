import path from "node:path";
import { env } from "../config/env";
import { ensureSecrets } from "../crypto/secrets";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { setReplicationRoleIfAllowed } from "../db/replication-role";
import { from as copyFrom } from "pg-copy-streams";
import { applyMigrations } from "../db/migrate";
import { appError } from "../errors";
import { unknownMigrations } from "../db/migration-state";
import type { Manifest } from "./archive-format";
import type { ArchiveKeys } from "./archive-crypto";
import { quoteIdent } from "./list-tables";
import { readArchive } from "./read-archive";
import type { Actor } from "../audit/actor";

const refuse = (msg: string) => appError("conflict", msg);

export interface RestoreResult {
  file: string;
  tables: number;
  rows: number;
  migrationsApplied: string[];
}

/**
 * Restores an archive into an empty database (issue 10 item 3, issue 22 item 4):
 * 1. reads the WHOLE archive once, writing nothing: age authenticates 64 KiB
 *    at a time and a truncation only at the end, and the manifest's HMAC
 *    vouches for the tables only once each is hashed; refuses anything that
 *    does not authenticate, and an archive from a newer schema (decision 0030);
 * 2. refuses a non-empty target unless `force`, and with `force` while other
 *    sessions are connected to it (naming them), then drops its schemas;
 * 3. reads the archive again (refused if it is not the one just verified),
 *    recreates its schema version by applying exactly its migrations;
 * 4. in ONE transaction: empties the tables (migrations seed some rows), COPYs
 *    every table in, checked again as it streams, and moves each id sequence
 *    past the largest id, so new rows never collide, and writes the restore's
 *    own audit row (issue 22.10); any failure rolls it all back;
 * 5. applies the migrations this code has beyond the archive's.
 */
export async function restoreBackup(opts: {
  in: string;
  url?: string;
  force?: boolean;
  keys?: ArchiveKeys;
  progress?: (line: string) => void;
  /** Who restores (the CLI's `cli`), for the audit row. */
  actor: Actor;
}): Promise<RestoreResult> {
  const url = opts.url ?? env().DATABASE_URL!;
  const { secretKey } = ensureSecrets();
  let verified: string | undefined;
  await readArchive(opts.in, {
    secretKey,
    keys: opts.keys,
    onManifest: (m, mac) => {
      const newer = unknownMigrations(m.migrations);
      if (newer.length)
        throw refuse(
          `the archive is from a newer schema (${newer.length} migration(s) this version does not know, first ${newer[0]}): restore it with that version or later`,
        );
      verified = mac;
    },
  });
  opts.progress?.("restore: archive authenticated");
  const client = new pg.Client({ connectionString: url, application_name: "cardkey-restore" });
  await client.connect();
  let rows = 0;
  let manifest: Manifest | undefined;
  let enableTriggers: (() => Promise<void>) | undefined;
  try {
    const replace = !(await isEmpty(client));
    if (replace) {
      if (!opts.force)
        throw refuse(
          "the target database is not empty: restore into an empty DATA_DIR or database, or pass --force to replace everything in it",
        );
      await refuseOtherSessions(client);
    }
    await readArchive(opts.in, {
      secretKey,
      keys: opts.keys,
      onManifest: async (m, mac) => {
        if (mac !== verified) throw refuse("the archive changed after it was verified: nothing was restored");
        manifest = m;
        if (replace) await client.query("DROP SCHEMA IF EXISTS graphile_worker CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public");
        await applyMigrations(url, { only: m.migrations });
        await client.query("BEGIN");
        // Foreign-key checks row by row are most of a large restore's time.
        // The rows come from one consistent snapshot and were checked against
        // their SHA-256, so, like `pg_restore --disable-triggers`, the load
        // skips the checks when the role may; otherwise every row is checked.
        await setReplicationRoleIfAllowed(client, "replica");
        enableTriggers = await disableUserTriggers(client);
        await client.query(`TRUNCATE ${m.tables.map((t) => quoteIdent(t.name)).join(", ")} CASCADE`);
      },
      onTable: async (table, data) => {
        const cols = table.columns.map(quoteIdent).join(", ");
        await pipeline(data, client.query(copyFrom(`COPY ${quoteIdent(table.name)} (${cols}) FROM STDIN`)));
        rows += table.rows;
        opts.progress?.(`restore: ${table.name} ${table.rows} rows`);
      },
    });
    await resetSequences(client);
    await auditRestore(client, opts.actor, {
      archive: path.basename(opts.in),
      createdAt: manifest!.createdAt,
      rows,
      force: replace,
    });
    await enableTriggers?.();
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
  const migrationsApplied = await applyMigrations(url);
  return { file: opts.in, tables: manifest!.tables.length, rows, migrationsApplied };
}

/**
 * `--force` drops everything in the target: refused while anything else is
 * connected to it (a running server or worker would write into a half-
 * restored database, or hold locks the drop waits for). Checked just before
 * the drop; a session that connects in between is not seen.
 */
async function refuseOtherSessions(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ pid: number; app: string | null; usr: string | null; addr: string | null }>(`
    SELECT pid, application_name AS app, usename AS usr, client_addr::text AS addr FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' ORDER BY pid`);
  if (!rows.length) return;
  const who = rows
    .slice(0, 5)
    .map((r) => `pid ${r.pid} ${JSON.stringify(r.app || "(no application_name)")} user ${r.usr ?? "?"} from ${r.addr ?? "local socket"}`);
  throw refuse(
    `restore --force refused: ${rows.length} other session(s) connected to the target database (${who.join("; ")}${rows.length > 5 ? "; …" : ""}): stop the server and workers first`,
  );
}

/** Empty: no table in schema public (a fresh DATA_DIR or `CREATE DATABASE`). */
async function isEmpty(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') LIMIT 1`);
  return rows.length === 0;
}

/**
 * Issue 22.10: the restore is a change like any other, so its row is written
 * in the load's transaction, after the restored trail (whose ids it follows).
 * SQL on this client, not writeAuditLog: the load's transaction is not
 * Prisma's. The actor is the CLI or the system, never an administrator.
 */
async function auditRestore(client: pg.Client, actor: Actor, details: Record<string, unknown>): Promise<void> {
  await client.query(`INSERT INTO "AuditLog" ("actor", "action", "targetType", "details") VALUES ($1, 'backup.restore', 'database', $2)`, [
    actor.kind,
    JSON.stringify(details),
  ]);
}

/** Every sequence owned by a column in public: the next value is one past the largest id restored. */
async function resetSequences(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ seq: string; tbl: string; col: string }>(`
    SELECT s.relname AS seq, t.relname AS tbl, a.attname AS col
    FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
    JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
    JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
    WHERE s.relkind = 'S' AND n.nspname = 'public'`);
  for (const r of rows) {
    await client.query(
      `SELECT setval($1::regclass, coalesce((SELECT max(${quoteIdent(r.col)}) FROM ${quoteIdent(r.tbl)}), 0) + 1, false)`,
      [quoteIdent(r.seq)],
    );
  }
}

/**
 * Disables every trigger of ours for the load and returns what enables each
 * again as it was (ALWAYS, REPLICA or plain). The catalogue journal's
 * triggers would otherwise journal the restored rows a second time (the
 * journal is restored too): replica mode silences only plain triggers, and
 * the "CardKey" ones are ALWAYS (decision 0024). The restoring role owns the
 * tables: it applied the migrations.
 */
async function disableUserTriggers(client: pg.Client): Promise<() => Promise<void>> {
  const { rows } = await client.query<{ tbl: string; name: string; state: string }>(`
    SELECT c.relname AS tbl, t.tgname AS name, t.tgenabled AS state
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND NOT t.tgisinternal AND t.tgenabled <> 'D'`);
  const how: Record<string, string> = { O: "", A: "ALWAYS ", R: "REPLICA " };
  for (const r of rows) await client.query(`ALTER TABLE ${quoteIdent(r.tbl)} DISABLE TRIGGER ${quoteIdent(r.name)}`);
  return async () => {
    for (const r of rows) await client.query(`ALTER TABLE ${quoteIdent(r.tbl)} ENABLE ${how[r.state]}TRIGGER ${quoteIdent(r.name)}`);
  };
}
