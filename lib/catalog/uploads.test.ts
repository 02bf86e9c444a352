import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { useTestDatabase } from "../testing/test-database";
import { moveUploadsIntoDatabase } from "./move-uploads-into-database";
import { MAX_UPLOAD_BYTES, saveUpload } from "./save-upload";

// Issue 27.1: uploaded pictures live in PostgreSQL (decision 0044), so every
// app instance serves them; a content-addressed URL cached for a year, a
// strong ETag and 304s; files from before move in once at start. The
// multi-instance test (scripts/multi-instance.test.ts) uploads through one
// instance and reads through the other; backup-restore.test.ts restores one.

const png = (tail: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(tail)]);
const sha = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");
let server: AppServer;

beforeAll(async () => {
  const url = await useTestDatabase();
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

describe("issue 27.1: uploads in PostgreSQL", () => {
  it("issue 27.1: a picture is stored with its type, size and SHA-256 under /uploads/<sha256>.<ext>; the same bytes twice are one row", async () => {
    const bytes = png(`one-${Date.now()}`);
    const p = await saveUpload(bytes);
    expect(p).toBe(`/uploads/${sha(bytes)}.png`);
    expect(await saveUpload(Buffer.from(bytes))).toBe(p);
    const rows = await db().upload.findMany({ where: { sha256: sha(bytes) } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: `${sha(bytes)}.png`, contentType: "image/png", size: bytes.length });
    expect(Buffer.from(rows[0].content).equals(bytes)).toBe(true);
  });

  it("issue 27.1: the checks stay: SVG, other bytes, an empty file and one over the cap are refused and nothing is written", async () => {
    const before = await db().upload.count();
    await expect(saveUpload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).rejects.toThrow(/only PNG/);
    await expect(saveUpload(Buffer.from("GIF8 not really"))).rejects.toThrow(/only PNG/);
    await expect(saveUpload(Buffer.alloc(0))).rejects.toThrow(/empty/);
    await expect(saveUpload(png("x".repeat(MAX_UPLOAD_BYTES)))).rejects.toThrow(/at most/);
    expect(await db().upload.count()).toBe(before);
  });

  it("issue 27.1: served with a strong ETag, `public, max-age=31536000, immutable` and 304 on If-None-Match; other paths 404", async () => {
    const bytes = png(`served-${Date.now()}`);
    const p = await saveUpload(bytes);
    const res = await fetch(server.baseUrl + p);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("etag")).toBe(`"${sha(bytes)}"`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");

    for (const inm of [`"${sha(bytes)}"`, `"other", W/"${sha(bytes)}"`, "*"]) {
      const again = await fetch(server.baseUrl + p, { headers: { "If-None-Match": inm } });
      expect(again.status, inm).toBe(304);
      expect(again.headers.get("etag")).toBe(`"${sha(bytes)}"`);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
    }
    const stale = await fetch(server.baseUrl + p, { headers: { "If-None-Match": '"0000"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();

    for (const bad of [`/uploads/${"0".repeat(64)}.png`, "/uploads/..%2fsecret.png", "/uploads/a/b.png", "/uploads/.hidden"]) {
      const r = await fetch(server.baseUrl + bad);
      expect(r.status, bad).toBe(404);
      await r.arrayBuffer();
    }
    const malformed = await fetch(`${server.baseUrl}/uploads/%E0%A4%A`); // Next refuses the escape itself
    expect(malformed.status).toBe(400);
  });

  it("issue 27.1: files in DATA_DIR/uploads move in once under their old names, safely from two starts at once; their URLs keep working", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-uploads-move-"));
    const dir = path.join(dataDir, "uploads");
    fs.mkdirSync(dir);
    const tag = crypto.randomBytes(8).toString("hex");
    const old = Array.from({ length: 12 }, (_, i) => ({ name: `${tag}${String(i).padStart(16, "0")}.png`, bytes: png(`old-${tag}-${i}`) }));
    for (const f of old) fs.writeFileSync(path.join(dir, f.name), f.bytes);
    fs.writeFileSync(path.join(dir, "notes.txt"), "not a picture");

    // Two instances starting together on one DATA_DIR and one database.
    const [a, b] = await Promise.all([moveUploadsIntoDatabase({ dir }), moveUploadsIntoDatabase({ dir })]);
    expect([...a.moved, ...b.moved].sort()).toEqual(old.map((f) => f.name).sort());
    expect(a.skipped.map((s) => s.name)).toEqual(["notes.txt"]);
    for (const f of old) {
      const row = await db().upload.findUniqueOrThrow({ where: { name: f.name } });
      expect(row).toMatchObject({ sha256: sha(f.bytes), size: f.bytes.length, contentType: "image/png" });
      expect(fs.existsSync(path.join(dataDir, "uploads-moved-to-database", f.name))).toBe(true);
    }
    expect(fs.readdirSync(dir)).toEqual(["notes.txt"]);

    // Once: the next start finds nothing to move and changes nothing.
    const count = await db().upload.count();
    const third = await moveUploadsIntoDatabase({ dir });
    expect(third.moved).toEqual([]);
    expect(await db().upload.count()).toBe(count);
    expect(await moveUploadsIntoDatabase({ dir: path.join(dataDir, "none") })).toEqual({ moved: [], skipped: [] });

    const res = await fetch(`${server.baseUrl}/uploads/${old[3].name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${sha(old[3].bytes)}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(old[3].bytes)).toBe(true);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
