import fs from "node:fs";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import tar from "tar-stream";
import { AppError, appError } from "../errors";
import { MANIFEST_ENTRY, ManifestSchema, type Manifest, type TableEntry } from "./archive-format";
import { countingHash } from "./create-backup";

const refuse = (msg: string) => appError("conflict", msg);

export interface ArchiveReader {
  /** After the manifest is read and checked; may refuse (throw) before any table is read. */
  onManifest?: (manifest: Manifest) => Promise<void>;
  /** Consumes one table's COPY text; the reader checks size, rows and checksum as it flows. */
  onTable?: (table: TableEntry, data: Readable) => Promise<void>;
}

/**
 * Reads an archive in one streaming pass: the manifest first, then every table
 * in the manifest's order, each checked against its size, row count and
 * SHA-256. Anything else (another entry, a missing table, a bad checksum, a
 * damaged gzip or tar) is refused with one line saying what.
 */
export async function readArchive(file: string, reader: ArchiveReader = {}): Promise<Manifest> {
  if (!fs.existsSync(file)) throw refuse(`no such archive: ${file}`);
  const extract = tar.extract();
  let manifest: Manifest | undefined;
  let next = 0;
  extract.on("entry", (header, stream, done) => {
    handle(header.name, stream as unknown as Readable).then(() => done(), (err) => extract.destroy(err));
  });
  async function handle(name: string, stream: Readable): Promise<void> {
    if (!manifest) {
      if (name !== MANIFEST_ENTRY) throw refuse(`not a cardkey backup: the first entry is ${JSON.stringify(name)}, not ${MANIFEST_ENTRY}`);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        throw refuse("not a cardkey backup: manifest.json is not JSON");
      }
      const checked = ManifestSchema.safeParse(parsed);
      if (!checked.success) throw refuse(`not a cardkey backup of this format: manifest ${checked.error.issues[0]?.path.join(".") || ""} ${checked.error.issues[0]?.message}`);
      manifest = checked.data;
      await reader.onManifest?.(manifest);
      return;
    }
    const table = manifest.tables[next++];
    if (!table || table.file !== name) throw refuse(`damaged archive: unexpected entry ${JSON.stringify(name)} (expected ${table ? table.file : "the end"})`);
    const counter = countingHash();
    const sink = reader.onTable ? null : new Writable({ write: (_c, _e, cb) => cb() });
    await Promise.all([
      reader.onTable ? reader.onTable(table, stream.pipe(counter.stream)) : pipeline(stream, counter.stream, sink!),
      new Promise((resolve, reject) => counter.stream.on("end", resolve).on("error", reject)),
    ]);
    const got = counter.result();
    if (got.bytes !== table.bytes || got.rows !== table.rows || got.sha256 !== table.sha256) {
      throw refuse(`damaged archive: ${table.name} does not match its checksum (${got.rows} rows, ${got.bytes} bytes read; ${table.rows} rows, ${table.bytes} bytes recorded)`);
    }
  }
  try {
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), extract);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw refuse(`damaged or not a backup archive: ${(err as Error).message}`);
  }
  if (!manifest) throw refuse("not a cardkey backup: no manifest.json");
  if (next !== manifest.tables.length) throw refuse(`damaged archive: ${manifest.tables.length - next} table(s) missing, first ${manifest.tables[next].name}`);
  return manifest;
}
