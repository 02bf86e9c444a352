import fs from "node:fs/promises";
import path from "node:path";
import { dataDir } from "../config/paths";
import { db } from "../db/client";
import { imageTypeOf, sha256Hex } from "./save-upload";

// Issue 27.1: before uploads lived in the database (decision 0044) they were
// files in DATA_DIR/uploads, and products, Markdown and settings still name
// them (/uploads/<old name>). At each start (scripts/start.ts) every such
// file is inserted under its old name, so those URLs keep working on every
// instance, then moved aside into DATA_DIR/uploads-moved-to-database (kept
// for the operator to delete, never read again). Safe to run twice and from
// two instances at once: an insert of a name already stored does nothing, a
// file is moved only when the stored row has its SHA-256, and a file another
// process moved first is simply gone.

/** Far above the console's limit: files may have been put there by hand; a row must still fit in memory. */
const MAX_MOVED_BYTES = 16 * 1024 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export interface MoveResult {
  moved: string[];
  skipped: { name: string; reason: string }[];
}

export async function moveUploadsIntoDatabase({ dir = path.join(dataDir(), "uploads") }: { dir?: string } = {}): Promise<MoveResult> {
  const result: MoveResult = { moved: [], skipped: [] };
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return result; // nothing from before
    throw err;
  }
  const movedDir = path.join(path.dirname(dir), "uploads-moved-to-database");
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    const reason = await moveOne(name, file, movedDir);
    if (reason === "moved") result.moved.push(name);
    else if (reason) result.skipped.push({ name, reason });
  }
  await fs.rmdir(dir).catch(() => undefined); // only when empty; a skipped file keeps it
  return result;
}

/** "moved", null (another process took it), or why it stays where it is. */
async function moveOne(name: string, file: string, movedDir: string): Promise<string | null> {
  if (!NAME.test(name) || name.includes("..")) return "not a name /uploads/ serves";
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat) return null;
  if (!stat.isFile()) return "not a regular file";
  if (stat.size === 0 || stat.size > MAX_MOVED_BYTES) return `size ${stat.size} bytes (1 to ${MAX_MOVED_BYTES})`;
  const bytes = await fs.readFile(file).catch(() => null);
  if (!bytes) return null;
  const type = imageTypeOf(bytes);
  if (!type) return "not a PNG, JPEG, GIF or WebP picture (it was never served)";
  const sha256 = sha256Hex(bytes);
  await db().upload.createMany({
    data: [{ name, contentType: type.mime, size: bytes.length, sha256, content: new Uint8Array(bytes) }],
    skipDuplicates: true,
  });
  const stored = await db().upload.findUnique({ where: { name }, select: { sha256: true } });
  if (stored?.sha256 !== sha256) return "a different picture is already stored under this name";
  await fs.mkdir(movedDir, { recursive: true });
  try {
    await fs.rename(file, path.join(movedDir, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  return "moved";
}
