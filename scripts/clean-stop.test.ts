import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../lib/db/client";
import { makeBuyer } from "../lib/testing/factories";
import { freePort } from "../lib/testing/app-server";
import { useTestDatabase } from "../lib/testing/test-database";
import { httpRequest, makeAgent, signedHttpRequest } from "./lib/signed-fetch";

// Issue 27.3, decision 0040: a stop signal to `npm start` alone, to its whole
// process group, or to the process a container or a systemd unit starts (the
// Dockerfile's CMD, the units' ExecStart) makes the server not-ready first
// (/api/health/ready 503 while it still serves), then drain, and every
// process exits 0. Under load: 16 keep-alive clients sending signed requests
// and health requests, which stop sending, as a balancer does, shortly after
// the readiness check turns 503. Real processes, real sockets, loopback only.

const CLIENTS = 16;
const MAX_REQUESTS = 4000;
const NOT_READY_MS = 3000;
/** How long the clients go on after ready turned 503: a balancer's reaction time, well within NOT_READY_MS. */
const BALANCER_LAG_MS = 300;

let databaseUrl: string;
let buyer: { apiKey: string; apiSecret: string };
const started: ChildProcess[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  databaseUrl = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 1_000_000, rateLimitPerIp: 1_000_000 } });
  buyer = await makeBuyer();
});

afterAll(() => {
  // The whole group, even when its leader has exited: a server orphaned by a failed stop is still in it.
  for (const c of started) killGroup(c, "SIGKILL");
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether any process of the group `c` leads is still there. */
function groupAlive(c: ChildProcess): boolean {
  try {
    process.kill(-c.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(c: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-c.pid!, signal);
  } catch {
    // already gone
  }
}

/** The command of the Dockerfile's CMD (exec form), which the systemd unit runs too. */
function containerCommand(): string[] {
  const cmd = fs.readFileSync("Dockerfile", "utf8").match(/^CMD (\[.*\])$/m);
  return JSON.parse(cmd![1]) as string[];
}

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** Starts `command` in its own process group (as a terminal, a container runtime or systemd does) and waits until it is ready. */
async function start(command: string[]): Promise<Started> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-clean-stop-"));
  dataDirs.push(dataDir);
  let output = "";
  const child = spawn(command[0], command.slice(1), {
    cwd: process.cwd(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      WORKER_IN_SERVER: "false",
      SHUTDOWN_DELAY_MS: String(NOT_READY_MS),
      ADMIN_PASSWORD: "clean-stop-test-password",
    },
  });
  started.push(child);
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command.join(" ")} exited early:\n${output}`);
    if (
      await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`${command.join(" ")} did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, port, output: () => output };
}

/** The environment of the group's server process (scripts/server-launch.mjs), as /proc shows it. */
function serverEnvironment(c: ChildProcess): string[] {
  const pids = spawnSync("ps", ["-o", "pid=,args=", "-g", String(c.pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((l) => l.includes("scripts/server-launch.mjs"))
    .map((l) => l.trim().split(/\s+/)[0]);
  expect(pids).toHaveLength(1);
  return fs.readFileSync(`/proc/${pids[0]}/environ`, "utf8").split("\0");
}

function exited(c: ChildProcess, ms: number): Promise<{ code: number | null; signal: string | null } | "still running"> {
  if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve({ code: c.exitCode, signal: c.signalCode });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("still running"), ms);
    c.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

interface Answer {
  path: string;
  sentAt: number;
  status?: number;
  connection?: string;
  error?: string;
}

/**
 * Load until the readiness check has answered 503 for BALANCER_LAG_MS, and a
 * poller of /api/health/ready that goes on until the port closes. `signal`
 * is sent once 100 requests were answered.
 */
async function loadThroughStop(port: number, signal: () => void) {
  const base = `http://127.0.0.1:${port}`;
  const agent = makeAgent(CLIENTS);
  const answers: Answer[] = [];
  const loadStartedAt = Date.now();
  let signalledAt = 0;
  let notReadyAt = 0;
  let portClosedAt = 0;
  let stoppingBeforeSignal = false;
  const poller = (async () => {
    const pollAgent = makeAgent(1);
    const deadline = Date.now() + 60_000;
    while (!portClosedAt && Date.now() < deadline) {
      const ready = await httpRequest(pollAgent, new URL(`${base}/api/health/ready`), "GET", {}).then(
        (r) => r,
        () => undefined,
      );
      // A 503 for another reason (the database slow on a busy machine) is not the stop's.
      const stopping = ready?.status === 503 && (JSON.parse(ready.body.toString()) as { stopping?: boolean }).stopping === true;
      if (!ready) portClosedAt = Date.now();
      else if (stopping) {
        if (!signalledAt) stoppingBeforeSignal = true;
        notReadyAt ||= Date.now();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    pollAgent.destroy();
  })();
  const client = async (i: number) => {
    while (answers.length < MAX_REQUESTS && !(notReadyAt && Date.now() - notReadyAt > BALANCER_LAG_MS)) {
      const a: Answer = { path: i % 4 === 0 ? "/api/health/live" : "/api/v1/upstream/ping", sentAt: Date.now() };
      answers.push(a);
      try {
        const res =
          a.path === "/api/health/live"
            ? await httpRequest(agent, new URL(base + a.path), "GET", {})
            : await signedHttpRequest(agent, buyer, base + a.path);
        a.status = res.status;
        a.connection = res.headers.connection;
      } catch (err) {
        a.error = (err as Error).message;
      }
      // Well into the load: 100 answers, or 20 s on a machine too busy for that.
      if (!signalledAt && (answers.filter((x) => x.status).length >= 100 || Date.now() - loadStartedAt > 20_000)) {
        signalledAt = Date.now();
        signal();
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  agent.destroy();
  await poller;
  return { answers, signalledAt, notReadyAt, portClosedAt, stoppingBeforeSignal };
}

async function expectCleanStopUnderLoad(command: string[], send: (c: ChildProcess) => void) {
  const { child, port, output } = await start(command);
  // Decision 0060: the server runs with two malloc arenas (its RSS stays near its heap).
  expect(serverEnvironment(child)).toContain("MALLOC_ARENA_MAX=2");
  const run = await loadThroughStop(port, () => send(child));
  const exit = await exited(child, 90_000);
  const counts = new Map<string, number>();
  for (const a of run.answers) counts.set(`${a.path} ${a.status ?? a.error}`, (counts.get(`${a.path} ${a.status ?? a.error}`) ?? 0) + 1);
  const statuses = [...counts].map(([k, n]) => `${k}: ${n}`).join(", ");
  const log = () =>
    `answers: ${statuses}; signalled: ${!!run.signalledAt}\n` +
    output()
      .split("\n")
      .filter((l) => /error|warn|stop|SIGTERM/i.test(l))
      .slice(-15)
      .join("\n");
  expect(exit, log()).toEqual({ code: 0, signal: null });
  // Every process of its group is gone within a second (no server left serving, no orphan).
  const survivors = () => spawnSync("ps", ["-o", "pid,ppid,stat,args", "-g", String(child.pid)], { encoding: "utf8" }).stdout;
  await expect.poll(() => groupAlive(child), { timeout: 2000, interval: 100, message: survivors() }).toBe(false);
  expect(run.signalledAt).toBeGreaterThan(0);
  expect(run.stoppingBeforeSignal).toBe(false);
  // Ready turned 503 after the signal and before the port closed.
  expect(run.notReadyAt, log()).toBeGreaterThanOrEqual(run.signalledAt);
  expect(run.portClosedAt).toBeGreaterThan(run.notReadyAt);
  expect(run.portClosedAt - run.notReadyAt).toBeGreaterThanOrEqual(NOT_READY_MS - 500);
  // No 5xx and no failed connection: everything sent was answered 200.
  const bad = run.answers
    .filter((a) => a.status !== 200)
    .map((a) => `${a.path} ${a.status ?? a.error} at +${a.sentAt - run.signalledAt} ms`);
  expect(bad, log()).toEqual([]);
  expect(run.answers.filter((a) => a.sentAt > run.signalledAt).length).toBeGreaterThan(CLIENTS);
  // While not ready, answers end their keep-alive connections, so clients move away before the port closes.
  const late = run.answers.filter((a) => a.sentAt > run.notReadyAt);
  expect(late.length).toBeGreaterThan(0);
  expect(late.every((a) => a.connection === "close")).toBe(true);
  expect(output()).toContain("stopped cleanly");
}

describe("issue 27.3: clean stops wherever it runs", () => {
  it("issue 27.3: the container's command and the systemd units run node, not npm", () => {
    expect(containerCommand()).toEqual(["node", "--import", "tsx", "scripts/start.ts"]);
    const unit = (name: string) => fs.readFileSync(path.join("deploy/systemd", name), "utf8");
    expect(unit("cardkey-app.service")).toMatch(/^ExecStart=\/usr\/bin\/node --import tsx scripts\/start\.ts$/m);
    expect(unit("cardkey-worker.service")).toMatch(/^ExecStart=\/usr\/bin\/node --import tsx scripts\/worker\.ts$/m);
    // Only the main process gets SIGTERM: it stops its children itself (the server, an embedded PostgreSQL) after the drain.
    for (const name of ["cardkey-app.service", "cardkey-worker.service"]) expect(unit(name)).toMatch(/^KillMode=mixed$/m);
  });

  it("issue 27.3: SIGTERM to `npm start` alone, under load: ready turns 503 first, no 5xx, every process exits, exit code 0", async () => {
    await expectCleanStopUnderLoad(["npm", "start"], (c) => c.kill("SIGTERM"));
  }, 300_000);

  it("issue 27.3: SIGTERM to the whole process group of `npm start` (systemd's default, a terminal's kill), under load: ready turns 503 first, no 5xx, exit code 0", async () => {
    await expectCleanStopUnderLoad(["npm", "start"], (c) => killGroup(c, "SIGTERM"));
  }, 300_000);

  it("issue 27.3: SIGTERM to the process the container starts (its CMD, the units' ExecStart), under load: ready turns 503 first, no 5xx, exit code 0", async () => {
    await expectCleanStopUnderLoad(containerCommand(), (c) => c.kill("SIGTERM"));
  }, 300_000);

  it("issue 27.3: SIGTERM to the worker as its unit and compose start it (node itself): it stops, its group is gone, exit code 0", async () => {
    const unit = fs.readFileSync("deploy/systemd/cardkey-worker.service", "utf8").match(/^ExecStart=\/usr\/bin\/node (.*)$/m);
    const command = ["node", ...unit![1].split(" ")];
    const compose = fs.readFileSync("compose.yaml", "utf8").match(/^ {4}command: (\[.*\])$/m);
    expect(JSON.parse(compose![1]), "compose's worker runs what the unit runs").toEqual(command);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-clean-stop-worker-"));
    dataDirs.push(dataDir);
    let output = "";
    const child = spawn(command[0], command.slice(1), {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, NODE_ENV: "production", LOG_LEVEL: "info", LOG_FORMAT: "json" },
    });
    started.push(child);
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    await expect
      .poll(() => output.includes("worker process running") || child.exitCode !== null, { timeout: 120_000, interval: 100 })
      .toBe(true);
    expect(child.exitCode, output).toBeNull();
    child.kill("SIGTERM");
    expect(await exited(child, 60_000), output).toEqual({ code: 0, signal: null });
    expect(output).toContain("stopping: waiting for running jobs");
    await expect.poll(() => groupAlive(child), { timeout: 2000, interval: 100 }).toBe(false);
  }, 300_000);
});
