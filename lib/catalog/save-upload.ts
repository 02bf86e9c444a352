import crypto from "node:crypto";
import { db } from "../db/client";
import { appError } from "../errors";

// Product pictures uploaded in the console live in the database (table
// Upload, issue 27.1, decision 0044), so every app instance serves them, and
// backups carry them. The public path is /uploads/<sha256>.<ext>: the URL
// names the content, so it never changes and is cached for a year
// (app/uploads/[...path]/route.ts; D15 makes it absolute in API responses).
// Only images are accepted, judged by their first bytes rather than the name
// or the browser's content type; SVG (scripts inside) is refused.

/** Server actions accept bodies up to 1 MB by default; a picture must fit in it with the rest of the form. */
export const MAX_UPLOAD_BYTES = 900 * 1024;

const TYPES = [
  {
    ext: "png",
    mime: "image/png",
    test: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { ext: "jpg", mime: "image/jpeg", test: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: "gif",
    mime: "image/gif",
    test: (b: Buffer) => b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a",
  },
  {
    ext: "webp",
    mime: "image/webp",
    test: (b: Buffer) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
  },
] as const;

export function imageTypeOf(bytes: Buffer): (typeof TYPES)[number] | undefined {
  return TYPES.find((t) => t.test(bytes));
}

export const sha256Hex = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

/** Stores one picture; returns its public path "/uploads/<sha256>.<ext>". The same bytes twice are one row. */
export async function saveUpload(bytes: Buffer): Promise<string> {
  if (bytes.length === 0) throw appError("bad_request", "the file is empty");
  if (bytes.length > MAX_UPLOAD_BYTES) throw appError("bad_request", `a picture may be at most ${Math.floor(MAX_UPLOAD_BYTES / 1024)} KB`);
  const type = imageTypeOf(bytes);
  if (!type) throw appError("bad_request", "only PNG, JPEG, GIF or WebP pictures are accepted");
  const sha256 = sha256Hex(bytes);
  const name = `${sha256}.${type.ext}`;
  await db().upload.createMany({
    data: [{ name, contentType: type.mime, size: bytes.length, sha256, content: new Uint8Array(bytes) }],
    skipDuplicates: true,
  });
  return `/uploads/${name}`;
}
