import fs from "node:fs";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import tar from "tar-stream";
import { AppError, appError } from "../errors";
import {
  MANIFEST_ENTRY,
  MANIFEST_MAC_ENTRY,
  ManifestSchema,
  MAX_MANIFEST_BYTES,
  type Manifest,
  secretKeyCheck,
  type TableEntry,
} from "./archive-format";
import { type ArchiveKeys, macMatches, openArchiveStream } from "./archive-crypto";
import { countingHash } from "./create-backup";

const refuse = (msg: string) => appError("conflict", msg);

export interface ArchiveReader {
  /** SECRET_KEY: the manifest must authenticate under it (and its identity opens the archive unless `keys` are given). */
  secretKey: string;
  keys?: ArchiveKeys;
  /** After the manifest is authenticated and checked; may refuse (throw) before any table is read. `mac` tells one archive from another. */
  onManifest?: (manifest: Manifest, mac: string) => void | Promise<void>;
  /** Consumes one table's COPY text; the reader checks size, rows and checksum as it flows. */
  onTable?: (table: TableEntry, data: Readable) => Promise<void>;
}

/**
 * Reads an archive in one streaming pass: decrypts it (age checks each 64 KiB
 * chunk's tag), authenticates the manifest with SECRET_KEY's HMAC, then reads
 * every table in the manifest's order, its size checked against the manifest
 * before a byte of it is read and its rows and SHA-256 as it flows. Anything
 * else (another entry, a missing table, an oversized manifest, a bad tag or
 * checksum) is refused with one line saying what. The end of the age stream
 * is authenticated only when the pass ends: callers that write read twice.
 */
export async function readArchive(file: string, reader: ArchiveReader): Promise<Manifest> {
  if (!fs.existsSync(file)) throw refuse(`no such archive: ${file}`);
  const plain = await openArchiveStream(file, reader.secretKey, reader.keys);
  const extract = tar.extract();
  let manifestBytes: Buffer | undefined;
  let manifest: Manifest | undefined;
  let next = 0;
  extract.on("entry", (header, stream, done) => {
    // A refusal before the entry is read destroys it too: its error is the extract's, reported once by the pipeline.
    stream.on("error", () => {});
    handle(header.name, header.size ?? 0, stream as unknown as Readable).then(
      () => done(),
      (err: Error) => extract.destroy(err),
    );
  });
  async function handle(name: string, size: number, stream: Readable): Promise<void> {
    if (!manifestBytes) {
      if (name !== MANIFEST_ENTRY) throw refuse(`not a cardkey backup: the first entry is ${JSON.stringify(name)}, not ${MANIFEST_ENTRY}`);
      if (size > MAX_MANIFEST_BYTES)
        throw refuse(`not accepted: ${MANIFEST_ENTRY} is ${size} bytes, over the ${MAX_MANIFEST_BYTES}-byte limit of a manifest`);
      manifestBytes = await readAll(stream);
      return;
    }
    if (!manifest) {
      if (name !== MANIFEST_MAC_ENTRY || size !== 64)
        throw refuse(`not a cardkey backup of this format: ${MANIFEST_ENTRY} is not followed by its ${MANIFEST_MAC_ENTRY}`);
      const mac = await readAll(stream);
      manifest = authenticate(manifestBytes, mac, reader.secretKey);
      await reader.onManifest?.(manifest, mac.toString("latin1"));
      return;
    }
    const table = manifest.tables[next++];
    if (!table || table.file !== name)
      throw refuse(`damaged archive: unexpected entry ${JSON.stringify(name)} (expected ${table ? table.file : "the end"})`);
    // Before the first byte of it streams (into COPY, on a restore).
    if (size !== table.bytes)
      throw refuse(`damaged archive: ${table.name} is ${size} bytes in the archive, the manifest records ${table.bytes}`);
    const counter = countingHash();
    const sink = reader.onTable ? null : new Writable({ write: (_c, _e, cb) => cb() });
    await Promise.all([
      reader.onTable ? reader.onTable(table, stream.pipe(counter.stream)) : pipeline(stream, counter.stream, sink!),
      new Promise((resolve, reject) => counter.stream.on("end", resolve).on("error", reject)),
    ]);
    const got = counter.result();
    if (got.bytes !== table.bytes || got.rows !== table.rows || got.sha256 !== table.sha256) {
      throw refuse(
        `damaged archive: ${table.name} does not match its checksum (${got.rows} rows, ${got.bytes} bytes read; ${table.rows} rows, ${table.bytes} bytes recorded)`,
      );
    }
  }
  try {
    await pipeline(plain, zlib.createGunzip(), extract);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw refuse(`damaged or not a backup archive: ${(err as Error).message}`);
  }
  if (!manifest) throw refuse("not a cardkey backup: no authenticated manifest.json");
  if (next !== manifest.tables.length)
    throw refuse(`damaged archive: ${manifest.tables.length - next} table(s) missing, first ${manifest.tables[next].name}`);
  return manifest;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The manifest, if its HMAC is SECRET_KEY's; parsed only then. */
function authenticate(bytes: Buffer, mac: Buffer, secretKey: string): Manifest {
  if (!macMatches(secretKey, bytes, mac)) {
    // Say which: made with another SECRET_KEY (opened with an off-site key), or altered.
    let claimed: unknown;
    try {
      claimed = (JSON.parse(bytes.toString("utf8")) as { secretKeyCheck?: unknown } | null)?.secretKeyCheck;
    } catch {
      // Not JSON: then it is simply tampered, said below.
    }
    if (typeof claimed === "string" && claimed !== secretKeyCheck(secretKey)) throw refuse(SECRET_KEY_DIFFERS);
    throw refuse(
      "tampered archive: manifest.json does not authenticate under this SECRET_KEY (altered, or re-packed by someone without the key)",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw refuse("not a cardkey backup: manifest.json is not JSON");
  }
  const checked = ManifestSchema.safeParse(parsed);
  if (!checked.success)
    throw refuse(
      `not a cardkey backup of this format: manifest ${checked.error.issues[0]?.path.join(".") || ""} ${checked.error.issues[0]?.message}`,
    );
  return checked.data;
}

export const SECRET_KEY_DIFFERS =
  "SECRET_KEY differs from the one this archive was made with (its card keys and API secrets are encrypted with that one): set SECRET_KEY, or put the original secret-key file in DATA_DIR";
