import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../net/free-port";
import { registerCheckedServer } from "./response-check";

export interface AppServer {
  baseUrl: string;
  /** The server's process (nextStart: next's). */
  pid: number;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
  /** kill -9: no shutdown at all (crash tests). */
  kill(): Promise<void>;
}

/**
 * Starts the real built app (scripts/server.ts through scripts/server-launch.mjs, as `npm start` does) on a free loopback port against the
 * given database, and waits until /api/health answers 200. Tests then speak
 * real HTTP to the real route handlers. `nextStart`: the same build served by
 * `next start` alone, without our server (decision 0036 compares the two).
 */
export async function startAppServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  opts: { nextStart?: boolean } = {},
): Promise<AppServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-app-"));
  let output = "";
  // Our production server (scripts/server.ts), not `next start`: it sets the client address from the socket (issue 8.5).
  const args = opts.nextStart
    ? ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"]
    : ["scripts/server-launch.mjs", "--port", String(port), "--hostname", "127.0.0.1"];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
      // No in-server job worker unless a test asks (WORKER_IN_SERVER: "true"): a
      // worker would send other tests' callbacks to their (public) example URLs.
      WORKER_IN_SERVER: "false",
      // No balancer in front of a test server: stop() drains at once (decision 0040).
      SHUTDOWN_DELAY_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Generous: a shared CI machine can be slow.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app server exited early:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`app server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  registerCheckedServer(baseUrl);
  return {
    baseUrl,
    pid: child.pid!,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

export { freePort };
