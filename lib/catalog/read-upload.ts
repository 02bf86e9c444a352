import { db } from "../db/client";

// The picture behind a public path /uploads/<name> (table Upload, decision
// 0044), for app/uploads/[...path]/route.ts. A name is one path segment of
// the shape the table's CHECK allows: no "..", nothing hidden or nested; any
// other path is simply not found, without a query.

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export interface StoredUpload {
  bytes: Buffer;
  contentType: string;
  sha256: string;
}

export async function readUpload(segments: string[]): Promise<StoredUpload | null> {
  if (segments.length !== 1) return null;
  const name = segments[0];
  if (!NAME.test(name) || name.includes("..")) return null;
  const row = await db().upload.findUnique({ where: { name }, select: { content: true, contentType: true, sha256: true } });
  return row ? { bytes: Buffer.from(row.content), contentType: row.contentType, sha256: row.sha256 } : null;
}

/** Whether an If-None-Match header names this entity tag (RFC 9110 13.1.2: weak comparison, or "*"). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}
