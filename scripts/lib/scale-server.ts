// The server and CLI of `npm run bench:catalog-scale`: `npm start`'s script on
// a scratch DATA_DIR (or DATABASE_URL) and a free port, the node process that
// serves (for its RSS), and CLI runs with their peak RSS.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** VmRSS / VmHWM of a process in MB, or undefined once it is gone. */
export function procMemoryMb(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The pid whose command line holds every one of `parts` (the node that runs scripts/server-launch.mjs). */
function findProcess(parts: string[]): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (parts.every((p) => cmd.includes(p))) return Number(entry);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

export interface ScaleServer {
  baseUrl: string;
  pid: number;
  stop: () => Promise<void>;
}

export async function startServer({ port, env, log }: { port: number; env: NodeJS.ProcessEnv; log: string }): Promise<ScaleServer> {
  const out = fs.openSync(log, "a");
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", out, out],
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20 * 60_000; // a stale build is rebuilt first
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}); see ${log}`);
    if (Date.now() > deadline) throw new Error(`the server was not ready in 20 minutes; see ${log}`);
    // A timeout: a request accepted while the server still starts may never be answered.
    const ready = await fetch(`${baseUrl}/api/health/ready`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const pid = findProcess([path.resolve("scripts/server-launch.mjs"), "--port", String(port)]);
  if (!pid) throw new Error("cannot find the server process");
  return {
    baseUrl,
    pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      process.kill(-child.pid!, "SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

export interface CliRun {
  json: unknown;
  seconds: number;
  peakRssMb: number;
}

/** `npm run cli`'s environment and node arguments (package.json), so the CLI runs as operators run it, without npm in between. */
const cliScript = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: { cli: string } }).scripts.cli.split(" ");
const cliEnv = Object.fromEntries(
  cliScript.filter((w, i) => i < cliScript.indexOf("node") && w.includes("=")).map((w) => w.split("=", 2) as [string, string]),
);
const cliArgs = cliScript.slice(cliScript.indexOf("node") + 1);

/** One CLI command; its peak RSS sampled from /proc (VmHWM) while it runs. */
export async function runCli(env: NodeJS.ProcessEnv, args: string[]): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...cliArgs, ...args], { env: { ...env, ...cliEnv }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, procMemoryMb(child.pid!, "VmHWM") ?? 0)), 100);
  const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
  clearInterval(timer);
  if (code !== 0) throw new Error(`cli ${args[0]} failed (${code}): ${stderr.trim().split("\n").at(-1)}`);
  return {
    json: JSON.parse(stdout.trimEnd().split("\n").at(-1)!),
    seconds: (performance.now() - started) / 1000,
    peakRssMb: Math.round(peak),
  };
}
