import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from "age-encryption";
import pg from "pg";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { runCli } from "../testing/run-cli";
import { hashPassword } from "../crypto/password";
import { db } from "../db/client";
import { withDatabase } from "../db/embedded";
import { makeBuyer } from "../testing/factories";
import { cloneTestDatabase, useTestDatabase } from "../testing/test-database";
import { manifestMac } from "./archive-crypto";
import type { Manifest } from "./archive-format";
import { verifyBackup } from "./verify-backup";

// Issue 22 item 4 (decision 0030): archives are encrypted (age) and
// authenticated (the manifest's HMAC under SECRET_KEY); verify and restore
// refuse anything that does not authenticate before writing a byte.

const ADMIN_EMAIL = "root-22-4@example.test";
const SECRET_KEY = process.env.SECRET_KEY!;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-backup-enc-"));
fs.chmodSync(scratch, 0o755);
const siteArchive = path.join(scratch, "site.backup");
let sourceUrl: string;
let adminHash: string;
let buyerEmail: string;
let identity: string;
let recipient: string;
let identityFile: string;

type Entry = { name: string; data: Buffer };

beforeAll(async () => {
  sourceUrl = await useTestDatabase();
  adminHash = await hashPassword("correct horse battery staple 22");
  await db().adminUser.create({ data: { email: ADMIN_EMAIL, passwordHash: adminHash } });
  buyerEmail = (await makeBuyer()).user.email;
  identity = await generateX25519Identity();
  recipient = await identityToRecipient(identity);
  identityFile = path.join(scratch, "offsite.key");
  fs.writeFileSync(identityFile, `# created: for the test\n${identity}\n`);
  const res = await runCli(["backup", "--out", siteArchive], { DATABASE_URL: sourceUrl });
  expect(res.code, res.stderr).toBe(0);
}, 240_000);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function emptyDatabase(): Promise<string> {
  const serverUrl = inject("testServerUrl");
  const name = `restore22_${Date.now()}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return withDatabase(serverUrl, name);
}

/** What a refused call threw (undefined when it succeeded): an error, with the words an operator reads. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as { message: string; publicMessage?: string },
  );

/** Everything a restore could change in a database: its tables, their row counts, its migrations and admins. */
async function stateOf(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const tables = (
      await c.query<{ t: string }>(`SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS t FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN ('public', 'graphile_worker') ORDER BY 1`)
    ).rows;
    const counts = [];
    for (const { t } of tables) counts.push(`${t}=${(await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n}`);
    const admins = (await c.query(`SELECT email, "passwordHash" FROM "AdminUser" ORDER BY id`)).rows;
    return JSON.stringify({ counts, admins });
  } finally {
    await c.end();
  }
}

/** A non-empty target with something of its own in it. */
async function populatedTarget(): Promise<string> {
  const url = await cloneTestDatabase();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`INSERT INTO "AdminUser" (email, "passwordHash") VALUES ('target-admin@example.test', 'target-hash')`);
  await c.end();
  return url;
}

/** An off-site copy, sealed to the test's age recipient only. */
async function offsiteArchive(name: string): Promise<string> {
  const file = path.join(scratch, name);
  const res = await runCli(["backup", "--out", file, "--recipient", recipient], { DATABASE_URL: sourceUrl });
  expect(res.code, res.stderr).toBe(0);
  return file;
}

/** What the off-site key holder can do: open the archive and list its entries. */
async function unpack(file: string): Promise<Entry[]> {
  const d = new Decrypter();
  d.addIdentity(identity);
  const tarBytes = zlib.gunzipSync(await d.decrypt(fs.readFileSync(file)));
  const entries: Entry[] = [];
  const extract = tar.extract();
  extract.on("entry", (h, s, next) => {
    const chunks: Buffer[] = [];
    s.on("data", (c) => chunks.push(c as Buffer));
    s.on("end", () => (entries.push({ name: h.name, data: Buffer.concat(chunks) }), next()));
  });
  await new Promise<void>((resolve, reject) =>
    extract
      .on("finish", () => resolve())
      .on("error", reject)
      .end(tarBytes),
  );
  return entries;
}

/** ...and seal entries again, to the same recipient, as a valid age file. */
async function repack(entries: Entry[], file: string): Promise<void> {
  const pack = tar.pack();
  for (const e of entries) pack.entry({ name: e.name, size: e.data.length }, e.data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  const e = new Encrypter();
  e.addRecipient(recipient);
  fs.writeFileSync(file, await e.encrypt(zlib.gzipSync(Buffer.concat(chunks))));
}

/** A new manifest, its HMAC made with `macKey` (SECRET_KEY: an archive only a bug or the key holder could make). */
function withManifest(entries: Entry[], manifest: string, macKey: string): Entry[] {
  const bytes = Buffer.from(manifest);
  return entries.map((e) =>
    e.name === "manifest.json"
      ? { ...e, data: bytes }
      : e.name === "manifest.hmac"
        ? { ...e, data: Buffer.from(manifestMac(macKey, bytes)) }
        : e,
  );
}

const verify = (file: string, ...args: string[]) => runCli<{ rows: number }>(["backup:verify", "--in", file, ...args], {});

describe("issue 22.4: backups are encrypted and authenticated", () => {
  it("issue 22.4: the archive is not readable plaintext: no admin e-mail, password hash or buyer e-mail in it, even gunzipped", async () => {
    const bytes = fs.readFileSync(siteArchive);
    let readable = bytes;
    try {
      readable = zlib.gunzipSync(bytes);
    } catch {
      // Not gzip (as it should be: it is encrypted); search the bytes as they are.
    }
    for (const secret of [ADMIN_EMAIL, adminHash, buyerEmail]) expect(readable.includes(Buffer.from(secret)), secret).toBe(false);
    expect(bytes.subarray(0, 22).toString()).toBe("age-encryption.org/v1\n");
    expect(fs.statSync(siteArchive).mode & 0o077).toBe(0);
    // The same holds for an off-site copy, and its holder does find them inside: the check above can see them.
    const offsite = await offsiteArchive("plain-check.backup");
    expect(fs.readFileSync(offsite).includes(Buffer.from(ADMIN_EMAIL))).toBe(false);
    const inside = Buffer.concat((await unpack(offsite)).map((e) => e.data));
    expect(inside.includes(Buffer.from(adminHash))).toBe(true);
  }, 120_000);

  it("issue 22.4: round trip: an off-site copy sealed to --recipient opens only with --identity-file, and restores", async () => {
    const offsite = await offsiteArchive("offsite.backup");
    const without = await verify(offsite);
    expect(without.code).toBe(1);
    expect(without.stderr.trim().split("\n")).toHaveLength(1);
    expect(without.stderr).toMatch(/not made with this SECRET_KEY.*--identity-file/);
    const withKey = await verify(offsite, "--identity-file", identityFile);
    expect(withKey.code, withKey.stderr).toBe(0);
    expect(withKey.json).toMatchObject({ ok: true });

    const target = await emptyDatabase();
    const restored = await runCli<{ rows: number }>(["restore", "--in", offsite, "--identity-file", identityFile], {
      DATABASE_URL: target,
    });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.json.rows).toBe(withKey.json.rows);
    expect(await stateOf(target)).toContain(adminHash);
    // Issue 22.10: the restore leaves its own audit row, after the restored trail.
    const trail = await runCli<{ rows: unknown[] }>(["audit:list", "--limit", "1"], { DATABASE_URL: target });
    expect(trail.json.rows[0]).toMatchObject({
      actor: "cli",
      action: "backup.restore",
      target_type: "database",
      details: { archive: "offsite.backup", rows: withKey.json.rows, force: false },
    });
  }, 240_000);

  it("issue 22.4: --passphrase-file seals an archive that opens only with that passphrase", async () => {
    const passFile = path.join(scratch, "pass.txt");
    fs.writeFileSync(passFile, "staple horse correct battery 22\n");
    const file = path.join(scratch, "pass.backup");
    const made = await runCli(["backup", "--out", file, "--passphrase-file", passFile], { DATABASE_URL: sourceUrl });
    expect(made.code, made.stderr).toBe(0);
    expect((await refusal(verifyBackup({ in: file })))?.message).toMatch(/not made with this SECRET_KEY/);
    expect((await verifyBackup({ in: file, keys: { passphrase: "staple horse correct battery 22" } })).ok).toBe(true);
    const both = await runCli(["backup", "--out", file, "--passphrase-file", passFile, "--recipient", recipient], {
      DATABASE_URL: sourceUrl,
    });
    expect(both.code).toBe(2);
  }, 240_000);

  it("issue 22.4: a byte flipped anywhere is refused by backup:verify and by restore, and nothing is changed", async () => {
    const bytes = fs.readFileSync(siteArchive);
    const positions = [30, 100, bytes.length >> 1, bytes.length - 17, bytes.length - 1];
    for (const at of positions) {
      const file = path.join(scratch, `flipped-${at}.backup`);
      const copy = Buffer.from(bytes);
      copy[at] ^= 0x01;
      fs.writeFileSync(file, copy);
      const err = await refusal(verifyBackup({ in: file }));
      expect(err?.message, `byte ${at}`).toMatch(/tampered|damaged|cannot open/);
    }
    const truncated = path.join(scratch, "truncated.backup");
    fs.writeFileSync(truncated, bytes.subarray(0, bytes.length - 1));
    expect((await refusal(verifyBackup({ in: truncated })))?.message).toMatch(/tampered|damaged/);

    const middle = path.join(scratch, `flipped-${bytes.length >> 1}.backup`);
    const v = await verify(middle);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/^error: damaged or tampered archive: it does not authenticate/);
    expect(v.stderr.trim().split("\n")).toHaveLength(1);

    const target = await populatedTarget();
    const before = await stateOf(target);
    const r = await runCli(["restore", "--in", middle, "--force"], { DATABASE_URL: target });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tampered/);
    expect(await stateOf(target)).toBe(before);
  }, 240_000);

  it("issue 22.4: an admin's hash replaced inside and re-packed without SECRET_KEY is refused by verify and restore, and nothing is changed", async () => {
    const entries = await unpack(await offsiteArchive("to-edit.backup"));
    const manifest = JSON.parse(entries.find((e) => e.name === "manifest.json")!.data.toString()) as Manifest;
    const attackerHash = await hashPassword("the attacker's own password");
    const table = manifest.tables.find((t) => t.name === "AdminUser")!;
    const entry = entries.find((e) => e.name === table.file)!;
    entry.data = Buffer.from(entry.data.toString().replace(adminHash, attackerHash));
    expect(entry.data.includes(Buffer.from(attackerHash))).toBe(true);
    // Every checksum recomputed, as anyone could: only the HMAC needs SECRET_KEY.
    Object.assign(table, { bytes: entry.data.length, sha256: crypto.createHash("sha256").update(entry.data).digest("hex") });
    const edited = path.join(scratch, "edited.backup");
    const manifestText = JSON.stringify(manifest, null, 2) + "\n";
    await repack(withManifest(entries, manifestText, "a guessed key, not the site's SECRET_KEY"), edited);

    const v = await verify(edited, "--identity-file", identityFile);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/^error: tampered archive: manifest.json does not authenticate/);
    expect(v.stderr.trim().split("\n")).toHaveLength(1);

    const target = await populatedTarget();
    const before = await stateOf(target);
    const r = await runCli(["restore", "--in", edited, "--force", "--identity-file", identityFile], { DATABASE_URL: target });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tampered archive/);
    expect(await stateOf(target)).toBe(before);
    expect(before).not.toContain(attackerHash);
  }, 240_000);

  it("issue 22.4: an oversized manifest.json is refused before it is read", async () => {
    const entries = await unpack(await offsiteArchive("to-inflate.backup"));
    const text = entries.find((e) => e.name === "manifest.json")!.data.toString();
    const file = path.join(scratch, "big-manifest.backup");
    await repack(withManifest(entries, text + " ".repeat(1024 * 1024), SECRET_KEY), file);
    const err = await refusal(verifyBackup({ in: file, keys: { identities: [identity] } }));
    expect(err?.message).toMatch(/manifest\.json is \d+ bytes, over the 1048576-byte limit/);
  }, 120_000);

  it("issue 22.4: a table whose size differs from the manifest's is refused before it streams", async () => {
    const entries = await unpack(await offsiteArchive("to-resize.backup"));
    const manifest = JSON.parse(entries.find((e) => e.name === "manifest.json")!.data.toString()) as Manifest;
    const table = manifest.tables.find((t) => t.name === "AdminUser")!;
    const recorded = table.bytes;
    table.bytes = recorded + 1;
    const file = path.join(scratch, "resized.backup");
    await repack(withManifest(entries, JSON.stringify(manifest), SECRET_KEY), file);
    const err = await refusal(verifyBackup({ in: file, keys: { identities: [identity] } }));
    expect(err?.publicMessage).toBe(`damaged archive: AdminUser is ${recorded} bytes in the archive, the manifest records ${recorded + 1}`);
  }, 120_000);

  it("issue 22.4: restore --force is refused while another session is connected to the target, naming it; nothing is changed", async () => {
    const target = await populatedTarget();
    const before = await stateOf(target);
    const other = new pg.Client({ connectionString: target, application_name: "issue-22-4-console" });
    await other.connect();
    try {
      const r = await runCli(["restore", "--in", siteArchive, "--force"], { DATABASE_URL: target });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error: restore --force refused: 1 other session\(s\) connected to the target database \(pid \d+ "issue-22-4-console" user \S+ from /,
      );
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      await other.end();
    }
    expect(await stateOf(target)).toBe(before);
  }, 240_000);

  it("issue 22.4: a plaintext archive (format 1) is refused with one line", async () => {
    const file = path.join(scratch, "old.tar.gz");
    fs.writeFileSync(file, zlib.gzipSync(Buffer.from("manifest.json")));
    const v = await verify(file);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/^error: a plaintext archive \(format 1, from before backups were encrypted\) is not accepted/);
    expect(v.stderr.trim().split("\n")).toHaveLength(1);
  }, 120_000);
});
