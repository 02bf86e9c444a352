import { spawn } from "node:child_process";
import pg from "pg";
import { isAlive } from "./pg-process";

// Decision 0050: an embedded PostgreSQL that a CLI run started outlives the
// run, so that the next command of a script joins it instead of starting it
// again; a background stopper stops it once no client has been connected for
// CLI_EMBEDDED_LINGER_SECONDS. It is spawned as soon as the server is up, not
// when the command ends, so a command that is interrupted or crashes still
// leaves a server that stops by itself. Whoever joined the server (another
// CLI run, `npm start`) keeps it running: they are its clients.

const STOPPER_ENV = "CARDKEY_EMBEDDED_STOPPER";

interface StopperJob {
  /** A superuser URL of the server's maintenance database (it sees every session, and is no restore's target). */
  url: string;
  /** The postmaster's process id. */
  pid: number;
  lingerMs: number;
}

/** Starts the stopper for the server this process started: `args` run this program again as the stopper. */
export function stopWhenIdleLater(job: StopperJob, args: string[]): void {
  const child = spawn(process.execPath, [...process.execArgv, ...args], {
    detached: true,
    stdio: "ignore",
    // The environment rather than the arguments: a URL with a password stays out of `ps`.
    env: { ...process.env, [STOPPER_ENV]: JSON.stringify(job) },
  });
  child.unref();
}

/**
 * The stopper: polls the server's sessions; after `lingerMs` with none but its
 * own, a fast shutdown (SIGINT) of the postmaster. Its own connection proves
 * the pid is still that server's: when the connection fails, the server is
 * gone (stopped by someone else) and there is nothing to do.
 */
export async function runStopper(): Promise<void> {
  const job = JSON.parse(process.env[STOPPER_ENV] ?? "null") as StopperJob | null;
  if (!job) throw new Error(`the stopper is started by the CLI, with ${STOPPER_ENV} set`);
  const client = new pg.Client({ connectionString: job.url, application_name: "cardkey embedded stopper" });
  client.on("error", () => undefined); // the server going away ends the loop below
  try {
    await client.connect();
  } catch {
    return; // already gone
  }
  let idleSince = Date.now();
  try {
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      if (rows[0].n > 0) idleSince = Date.now();
      else if (Date.now() - idleSince >= job.lingerMs) break;
      await new Promise((r) => setTimeout(r, rows[0].n > 0 ? 1000 : 200));
    }
  } catch {
    return; // the server stopped under us
  } finally {
    await client.end().catch(() => undefined);
  }
  try {
    process.kill(job.pid, "SIGINT");
  } catch {
    return;
  }
  // Stay until it is down, so that a caller waiting on this process sees the end.
  for (let i = 0; i < 600 && isAlive(job.pid); i++) await new Promise((r) => setTimeout(r, 100));
}
