import { env } from "../config/env";
import { ensureSecrets } from "../crypto/secrets";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import tar from "tar-stream";
import { APPLIED_MIGRATIONS_SQL } from "../db/migration-state";
import type { Encrypter } from "age-encryption";
import {
  EXCLUDED,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_ENTRY,
  MANIFEST_MAC_ENTRY,
  type Manifest,
  secretKeyCheck,
  type TableEntry,
} from "./archive-format";
import { encrypterFor, manifestMac, type SealTo, sealStream } from "./archive-crypto";
import { listTables, quoteIdent } from "./list-tables";

export interface BackupResult {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
}

/**
 * One consistent archive of the whole database (issue 10 item 3), taken while
 * the server runs: every table is COPYed inside ONE read-only REPEATABLE READ
 * transaction, so all of them show the database at one instant (an order and
 * its ledger entry are both in it or both not). Tables stream to spool files
 * beside the output (tar needs each entry's size up front), never into memory;
 * the archive is encrypted as it is written (issue 22 item 4: to SECRET_KEY's
 * identity, or to `to`), to a temporary name renamed when complete.
 */
export async function createBackup(opts: {
  out: string;
  url?: string;
  to?: SealTo;
  progress?: (line: string) => void;
}): Promise<BackupResult> {
  const out = path.resolve(opts.out);
  const { secretKey } = ensureSecrets();
  const encrypter = await encrypterFor(secretKey, opts.to);
  const spool = fs.mkdtempSync(path.join(path.dirname(out), ".backup-spool-"));
  const client = new pg.Client({ connectionString: opts.url ?? env().DATABASE_URL, application_name: "cardkey-backup" });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    // The snapshot is taken by the first query: everything below sees this instant.
    const migrations = (await client.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL)).rows.map((r) => r.migration_name);
    const postgres = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v;
    const tables: TableEntry[] = [];
    const list = await listTables(client);
    for (const [i, t] of list.entries()) {
      const file = `tables/${String(i).padStart(3, "0")}-${t.name}.copy`;
      const spoolFile = path.join(spool, `${i}.copy`);
      const counter = countingHash();
      const cols = t.columns.map(quoteIdent).join(", ");
      await pipeline(
        client.query(copyTo(`COPY ${quoteIdent(t.name)} (${cols}) TO STDOUT`)),
        counter.stream,
        fs.createWriteStream(spoolFile),
      );
      tables.push({ name: t.name, file, columns: t.columns, ...counter.result() });
      opts.progress?.(`backup: ${t.name} ${counter.result().rows} rows`);
    }
    await client.query("COMMIT");
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      postgres,
      migrations,
      secretKeyCheck: secretKeyCheck(secretKey),
      tables,
      excluded: EXCLUDED,
    };
    const partial = `${out}.partial-${process.pid}`;
    await writeArchive(partial, manifest, secretKey, encrypter, (i) => path.join(spool, `${i}.copy`));
    fs.renameSync(partial, out);
    const rows = tables.reduce((n, t) => n + t.rows, 0);
    return { file: out, bytes: fs.statSync(out).size, tables: tables.length, rows };
  } finally {
    await client.end().catch(() => {});
    fs.rmSync(spool, { recursive: true, force: true });
  }
}

async function writeArchive(
  file: string,
  manifest: Manifest,
  secretKey: string,
  encrypter: Encrypter,
  spoolOf: (i: number) => string,
): Promise<void> {
  const pack = tar.pack();
  const gzip = zlib.createGzip({ level: 3 });
  const sealed = await sealStream(gzip, encrypter);
  const written = Promise.all([pipeline(pack, gzip), pipeline(sealed, fs.createWriteStream(file, { mode: 0o600 }))]);
  const addEntry = (name: string, size: number, source: NodeJS.ReadableStream) =>
    new Promise<void>((resolve, reject) => {
      const entry = pack.entry({ name, size, mode: 0o600, mtime: new Date(manifest.createdAt) }, (err) => (err ? reject(err) : resolve()));
      source.on("error", reject);
      source.pipe(entry);
    });
  const json = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
  const mac = Buffer.from(manifestMac(secretKey, json), "latin1");
  for (const [name, bytes] of [
    [MANIFEST_ENTRY, json],
    [MANIFEST_MAC_ENTRY, mac],
  ] as const) {
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name, size: bytes.length, mode: 0o600 }, bytes, (err) => (err ? reject(err) : resolve())),
    );
  }
  for (const [i, t] of manifest.tables.entries()) await addEntry(t.file, t.bytes, fs.createReadStream(spoolOf(i)));
  pack.finalize();
  await written;
}

/** Passes bytes through, counting them, their lines (COPY text: one row per line) and their SHA-256. */
export function countingHash() {
  const hash = crypto.createHash("sha256");
  let bytes = 0;
  let rows = 0;
  let digest: string | undefined;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ rows, bytes, sha256: (digest ??= hash.digest("hex")) }) };
}
