import crypto from "node:crypto";
import fs from "node:fs";
import { freePort } from "../net/free-port";
import path from "node:path";
import pg from "pg";
import { log } from "../log";
import { StartupError } from "../config/startup-error";
import { clusterDir, pgBinaries, type PgBinaries } from "./pg-binaries";
import { initdb, isAlive, startPostgres } from "./pg-process";

export const EMBEDDED_DB_NAME = "cardkey";

export interface EmbeddedServer {
  /** URL of the server's maintenance database; swap the path for others. */
  serverUrl: string;
  /** Present when this process started the server and must stop it. */
  stop?: () => Promise<void>;
  /** The postmaster's process id, when this process started it. */
  pid?: number;
}

/**
 * Connects to the embedded PostgreSQL under `dir` if one is already running
 * (its postmaster.pid names a live process and a port), or starts one. Two
 * processes never run two servers on one data directory: PostgreSQL's own
 * postmaster.pid lock refuses the second, and the loser connects instead.
 * `outlive`: a server this process starts is detached from it, its output in
 * DATA_DIR/postgres.log, so that it may outlive this process (decision 0050).
 */
export async function connectOrStartEmbedded(dir: string, opts: { nativeDir?: string; outlive?: boolean } = {}): Promise<EmbeddedServer> {
  const password = readOrCreatePassword(dir);
  if (process.getuid?.() === 0) {
    // As root the server runs as user `postgres`, which must be able to enter
    // DATA_DIR (mktemp -d makes it 0700). Search permission only: the files
    // in it (secrets, password) stay 0600. A parent it cannot enter is handled by clusterDir().
    fs.chmodSync(dir, fs.statSync(dir).mode | 0o011);
  }
  const pgDir = clusterDir(dir);
  const bins = await pgBinaries(opts.nativeDir);
  checkVersion(pgDir, bins);
  let lastError: unknown;
  for (let attempt = 0; attempt < 20; attempt++) {
    const running = await runningServer(pgDir, password);
    if (running) return { serverUrl: running };
    try {
      return await startServer(bins, pgDir, password, opts.outlive ? path.join(dir, "postgres.log") : undefined);
    } catch (err) {
      // A full disk or a permission problem will not go away by retrying (issue 10.6).
      if (/No space left|Permission denied|EACCES|ENOSPC|EPERM/i.test(String((err as Error)?.message ?? err))) throw err;
      // Another process may have won the race; look again shortly.
      lastError = err;
      log.debug({ err: String(err) }, "embedded postgres start failed, retrying");
      await new Promise((r) => setTimeout(r, 250 + Math.random() * 250));
    }
  }
  throw new Error(`could not start or reach the embedded PostgreSQL in ${pgDir}: ${String((lastError as Error)?.message ?? lastError)}`);
}

/** Issue 10.6: a data directory made by another PostgreSQL major version cannot be opened by these binaries. */
function checkVersion(pgDir: string, bins: PgBinaries): void {
  let text: string;
  try {
    text = fs.readFileSync(path.join(pgDir, "PG_VERSION"), "utf8").trim();
  } catch {
    return; // no cluster yet
  }
  const major = Number(text);
  if (major === bins.major) return;
  throw new StartupError(
    major > bins.major
      ? `the database in ${pgDir} was made by PostgreSQL ${text}, newer than this installation's PostgreSQL ${bins.major}: run the version of this app that made it, or restore a backup (npm run cli -- restore) into an empty DATA_DIR`
      : `the database in ${pgDir} was made by PostgreSQL ${text}, older than this installation's PostgreSQL ${bins.major}: take a backup with the version that made it (npm run cli -- backup) and restore it into an empty DATA_DIR`,
  );
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = "/" + database;
  return url.toString();
}

export async function createDatabaseIfMissing(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: Error & { code?: string }) => {
        if (err.code !== "42P04") throw err; // created concurrently
      });
    }
  } finally {
    await client.end();
  }
}

/** A generated password kept in `DATA_DIR/<name>` (0600): the superuser's (`pg-password`), the app role's (`pg-app-password`). */
export function readOrCreatePassword(dir: string, name = "pg-password"): string {
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(file)) {
    // Written aside, then linked into place, so a process starting at the same
    // moment never reads a half-written file; the second link fails, harmlessly.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, crypto.randomBytes(18).toString("base64url"), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  return fs.readFileSync(file, "utf8").trim();
}

function urlFor(port: number, password: string): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

async function runningServer(pgDir: string, password: string): Promise<string | undefined> {
  const pidFile = path.join(pgDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !isAlive(pid)) return undefined;
  // The pid file is written before the server accepts connections.
  for (let i = 0; i < 40; i++) {
    const url = urlFor(port, password);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => {});
      if (!isAlive(pid)) return undefined;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return undefined;
}

const FLAGS = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=300"];

/**
 * initdb into a private directory, then rename it into place: a process that
 * starts at the same moment sees either no cluster or a complete one, never
 * one still being initialised (rename(2) replaces only a missing or empty directory).
 */
async function initialiseOnce(bins: PgBinaries, pgDir: string, password: string): Promise<void> {
  const tmp = `${pgDir}.init-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  log.info({ pgDir }, "initialising embedded PostgreSQL");
  try {
    await initdb(bins, tmp, password);
    fs.renameSync(tmp, pgDir);
  } catch (err) {
    if (!["ENOTEMPTY", "EEXIST"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
    // Another process put its cluster in place first: use that one.
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function startServer(bins: PgBinaries, pgDir: string, password: string, logFile?: string): Promise<EmbeddedServer> {
  const port = await freePort();
  if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) await initialiseOnce(bins, pgDir, password);
  const server = await startPostgres(bins, pgDir, port, FLAGS, { logFile });
  log.info({ port }, "embedded PostgreSQL started");
  return { serverUrl: urlFor(port, password), stop: () => server.stop(), pid: server.pid };
}
