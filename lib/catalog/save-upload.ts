import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { dataDir } from "../config/paths";
import { appError } from "../errors";

// Product pictures uploaded in the console live in DATA_DIR/uploads and are
// served by app/uploads/[...path]/route.ts at /uploads/<name> (D15 makes the
// stored path absolute in API responses). Only images are accepted, judged by
// their first bytes rather than the name or the browser's content type.

/** Server actions accept bodies up to 1 MB by default; a picture must fit in it with the rest of the form. */
export const MAX_UPLOAD_BYTES = 900 * 1024;

const TYPES = [
  { ext: "png", mime: "image/png", test: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: "jpg", mime: "image/jpeg", test: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: "gif", mime: "image/gif", test: (b: Buffer) => b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a" },
  { ext: "webp", mime: "image/webp", test: (b: Buffer) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP" },
] as const;

export function uploadsDir(): string {
  return path.join(dataDir(), "uploads");
}

export function imageTypeOf(bytes: Buffer): (typeof TYPES)[number] | undefined {
  return TYPES.find((t) => t.test(bytes));
}

/** Stores one picture under a random name; returns its public path "/uploads/<name>". */
export async function saveUpload(bytes: Buffer): Promise<string> {
  if (bytes.length === 0) throw appError("bad_request", "the file is empty");
  if (bytes.length > MAX_UPLOAD_BYTES) throw appError("bad_request", `a picture may be at most ${Math.floor(MAX_UPLOAD_BYTES / 1024)} KB`);
  const type = imageTypeOf(bytes);
  if (!type) throw appError("bad_request", "only PNG, JPEG, GIF or WebP pictures are accepted");
  const name = `${crypto.randomBytes(16).toString("hex")}.${type.ext}`;
  await fs.mkdir(uploadsDir(), { recursive: true });
  await fs.writeFile(path.join(uploadsDir(), name), bytes, { flag: "wx" });
  return `/uploads/${name}`;
}

/**
 * The file for a request path under /uploads, or null: no "..", no hidden or
 * nested names, must resolve inside DATA_DIR/uploads and be an image.
 */
export async function readUpload(segments: string[]): Promise<{ bytes: Buffer; mime: string } | null> {
  if (segments.length !== 1) return null;
  const name = segments[0];
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(name) || name.includes("..")) return null;
  const root = uploadsDir();
  const file = path.resolve(root, name);
  if (path.dirname(file) !== root) return null;
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    return null;
  }
  const type = imageTypeOf(bytes);
  return type ? { bytes, mime: type.mime } : null;
}
