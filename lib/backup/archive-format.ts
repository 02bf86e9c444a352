import crypto from "node:crypto";
import { z } from "zod";

// The backup archive (README "Backup and restore", decisions 0015 and 0030):
// an age file (age-encryption.org/v1) around a gzip-compressed POSIX tar.
// Inside: `manifest.json`, then `manifest.hmac` (its HMAC under a key derived
// from SECRET_KEY), then one entry per table, `tables/<NNN>-<Table>.copy`, in
// PostgreSQL's COPY text format (one row per line), in foreign-key order so a
// restore can load them as it reads.
export const MANIFEST_ENTRY = "manifest.json";
export const MANIFEST_MAC_ENTRY = "manifest.hmac";
export const FORMAT = "cardkey-backup";
/** 2: encrypted and authenticated (issue 22 item 4). 1 was a plaintext tar.gz, no longer accepted. */
export const FORMAT_VERSION = 2;
/**
 * A manifest is read into memory before anything is authenticated by it: a
 * few hundred bytes per table, so 1 MiB is hundreds of times what the
 * schema needs, and a crafted entry cannot make a restore buffer gigabytes.
 */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

export const TableEntrySchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  file: z.string().regex(/^tables\/\d{3}-[A-Za-z0-9_]+\.copy$/),
  columns: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).min(1),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const ManifestSchema = z.strictObject({
  format: z.literal(FORMAT),
  formatVersion: z.literal(FORMAT_VERSION),
  createdAt: z.iso.datetime(),
  postgres: z.string(),
  /** The schema version: every migration applied when the snapshot was taken. */
  migrations: z.array(z.string()).min(1),
  /** Tells a restore whether SECRET_KEY is the one the card keys were encrypted with, without containing it. */
  secretKeyCheck: z.string().regex(/^[0-9a-f]{16}$/),
  tables: z.array(TableEntrySchema),
  /** What is deliberately not in the archive, and why. */
  excluded: z.array(z.string()),
});
export type Manifest = z.infer<typeof ManifestSchema>;
export type TableEntry = z.infer<typeof TableEntrySchema>;

/** A one-way check value of SECRET_KEY: 64 bits of a domain-separated SHA-256, never the key. */
export function secretKeyCheck(secretKey: string): string {
  return crypto.createHash("sha256").update(`cardkey-backup/secret-key-check\0${secretKey}`).digest("hex").slice(0, 16);
}

export const EXCLUDED = [
  "_prisma_migrations: the schema version is in the manifest; a restore recreates it by applying those migrations",
  "graphile_worker schema: job rows are derived state; a worker's start requeues pending callbacks and upstream purchases from the orders' tables",
];
