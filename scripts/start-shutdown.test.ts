import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../lib/db/client";
import { cardKeysFor, makeBuyer, makeProduct } from "../lib/testing/factories";
import { freePort } from "../lib/testing/app-server";
import { onDatabase } from "../lib/testing/test-database";
import { runCli } from "../lib/testing/run-cli";
import { makeAgent, signedHttpRequest } from "./lib/signed-fetch";

// Issue 10 item 4: `npm start` (scripts/start.ts, embedded PostgreSQL under
// DATA_DIR) under 32 concurrent order creates. SIGTERM drains and exits 0;
// kill -9 of the whole process group loses nothing acknowledged either. After
// each restart: every order answered 200 exists, retrying every unanswered
// request with its downstream_order_no yields exactly one order, no card key
// is in two orders, and `points:reconcile` is ok. Loopback only, bounded.

const CONCURRENCY = 32;
// A bound, not the expected count: the signal comes after STOP_AFTER_MS of load.
const MAX_ORDERS_PER_PHASE = 2000;
// Well into the run, whatever the order rate: the signal comes this long after
// the first answer (past the cold start, which on a loaded machine can take
// seconds for the first 32), so requests sent after the warm-up are in flight.
const STOP_AFTER_MS = 300;
let dataDir: string;
let port: number;
let child: ChildProcess | undefined;
let output = "";
let buyer: { apiKey: string; apiSecret: string };
let skuId: number;

function embeddedUrl(): string {
  const password = fs.readFileSync(path.join(dataDir, "pg-password"), "utf8").trim();
  const pgPort = Number(fs.readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[3]);
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/cardkey`;
}

async function start(): Promise<void> {
  const { DATABASE_URL: _own, ...env } = process.env;
  output = "";
  // Its own process group, as a terminal or a supervisor would start it: kill -9 of the group takes PostgreSQL too.
  child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: process.cwd(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      WORKER_IN_SERVER: "true",
      ADMIN_PASSWORD: "shutdown-test-password",
    },
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`npm start did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function exited(c: ChildProcess): Promise<number | null> {
  return c.exitCode !== null || c.signalCode !== null ? Promise.resolve(c.exitCode) : new Promise((r) => c.once("exit", (code) => r(code)));
}

interface Attempt {
  no: string;
  sentAt: number;
  status?: number;
}

/** 32 clients creating orders until `stop()`'s signal takes the server away (or the bound is reached). */
async function load(phase: string, stop: () => void): Promise<Attempt[]> {
  const agent = makeAgent(CONCURRENCY);
  const url = new URL(`http://127.0.0.1:${port}/api/v1/upstream/orders`);
  const attempts: Attempt[] = [];
  let next = 0;
  let refused = 0;
  let answered = 0;
  let stopped = false;
  let firstAnswerAt = 0;
  const client = async () => {
    while (next < MAX_ORDERS_PER_PHASE && refused < CONCURRENCY) {
      const a: Attempt = { no: `STOP-${phase}-${next++}`, sentAt: Date.now() };
      attempts.push(a);
      try {
        const res = await signedHttpRequest(
          agent,
          buyer,
          url,
          "POST",
          JSON.stringify({ downstream_order_no: a.no, sku_id: skuId, quantity: 1 }),
        );
        a.status = res.status;
        if (res.status === 200 && !firstAnswerAt) firstAnswerAt = Date.now();
        // Well into the run (past the cold start), with 32 requests in flight.
        if (res.status === 200 && ++answered >= 40 && !stopped && Date.now() - firstAnswerAt >= STOP_AFTER_MS) {
          stopped = true;
          stop();
        }
      } catch {
        refused++; // connection refused or cut: unanswered
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  agent.destroy();
  return attempts;
}

/** The checks of issue 10.4 after a restart. */
async function checkAfterRestart(attempts: Attempt[]) {
  const answered = attempts.filter((a) => a.status === 200).map((a) => a.no);
  const unanswered = attempts.filter((a) => a.status !== 200).map((a) => a.no);
  expect(answered.length).toBeGreaterThan(0);
  const agent = makeAgent(8);
  const url = new URL(`http://127.0.0.1:${port}/api/v1/upstream/orders`);
  for (const no of unanswered) {
    const res = await signedHttpRequest(agent, buyer, url, "POST", JSON.stringify({ downstream_order_no: no, sku_id: skuId, quantity: 1 }));
    expect(res.status, `${no}: ${res.body.toString("utf8")}`).toBe(200);
  }
  agent.destroy();
  await onDatabase(embeddedUrl(), async () => {
    const orders = await db().order.findMany({
      where: { downstreamOrderNo: { in: attempts.map((a) => a.no) } },
      select: { id: true, downstreamOrderNo: true },
    });
    const byNo = new Map<string, number>();
    for (const o of orders) byNo.set(o.downstreamOrderNo, (byNo.get(o.downstreamOrderNo) ?? 0) + 1);
    for (const no of answered) expect(byNo.get(no), `acknowledged ${no} lost`).toBe(1);
    for (const no of unanswered) expect(byNo.get(no), `retried ${no}`).toBe(1);
    // One delivered key per order, and a key never in two orders.
    const keys = await db().cardKey.groupBy({ by: ["orderId"], where: { orderId: { in: orders.map((o) => o.id) } }, _count: true });
    expect(keys).toHaveLength(orders.length);
    expect(keys.every((k) => k._count === 1)).toBe(true);
    const keyRows = await db().cardKey.count({ where: { orderId: { in: orders.map((o) => o.id) } } });
    expect(keyRows).toBe(orders.length);
  });
  const reconcile = await runCli(["points:reconcile"], { DATABASE_URL: undefined, DATA_DIR: dataDir });
  expect(reconcile.json, reconcile.stderr).toMatchObject({ ok: true });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-stop-"));
  fs.chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as "postgres" and must enter it
  port = await freePort();
  await start();
  ({ buyer, skuId } = await onDatabase(embeddedUrl(), async () => {
    await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 1_000_000, rateLimitPerIp: 1_000_000 } });
    const b = await makeBuyer({ pointsCents: 10_000_000n });
    const { sku } = await makeProduct({
      priceCents: 100n,
      cardKeys: cardKeysFor(`STOP-${crypto.randomBytes(3).toString("hex")}`, 2 * MAX_ORDERS_PER_PHASE + 10),
    });
    return { buyer: b, skuId: sku.id };
  }));
  await new Promise((r) => setTimeout(r, 1500)); // the server's settings cache (1 s) sees the raised limits
}, 200_000);

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("issue 10.4: clean shutdown, and no acknowledged order lost to a crash", () => {
  it("issue 10.4: SIGTERM under 32 concurrent creates drains in-flight requests, stops PostgreSQL cleanly, exits 0; nothing lost after restart", async () => {
    const c = child!;
    let signalledAt = 0;
    const attempts = await load("term", () => {
      signalledAt = Date.now();
      c.kill("SIGTERM"); // the npm start process only, as a supervisor does
    });
    expect(await exited(c)).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(40_000);
    // Drained: every request that reached the server before the signal got its answer.
    const inFlight = attempts.filter((a) => a.sentAt < signalledAt - 100);
    expect(inFlight.length).toBeGreaterThan(CONCURRENCY);
    const failed = inFlight.filter((a) => a.status !== 200).map((a) => `${a.no}:${a.status}`);
    if (failed.length)
      console.log(
        output
          .split("\n")
          .filter((l) => /error|warn/i.test(l))
          .slice(0, 20)
          .join("\n"),
      );
    expect(failed).toEqual([]);
    expect(output).toContain("stopped cleanly");
    // PostgreSQL stopped cleanly: it removes its lock file only on a clean shutdown.
    expect(fs.existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
    await start();
    await checkAfterRestart(attempts);
  }, 300_000);

  it("issue 10.4: kill -9 of the whole process group under 32 concurrent creates loses no acknowledged order", async () => {
    const c = child!;
    const attempts = await load("kill", () => process.kill(-c.pid!, "SIGKILL"));
    await exited(c);
    await start(); // PostgreSQL recovers from its write-ahead log
    await checkAfterRestart(attempts);
    c.removeAllListeners();
    child!.kill("SIGTERM");
    expect(await exited(child!)).toBe(0);
  }, 300_000);
});
