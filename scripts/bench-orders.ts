// `npm run bench:orders`: throughput of POST {prefix}/orders for an
// auto-delivered SKU against PostgreSQL's own ceiling on the same machine.
// Point it at a running server (`npm start`) prepared by `npm run
// bench:setup` (buyers with enough points, API keys, an `auto` SKU with enough
// card keys, rate limits high enough); it reads the database configuration as
// the server does (DATA_DIR or DATABASE_URL) to run pgbench and read costs.
//
//   taskset -c 0,1 npm run bench:orders -- --c 32 --seconds 10 --buyers 32   (BENCH_* from bench:setup)
//
// Issue 40.1: one run prints the cores it runs on, then measures, one after
// the other: (1) pgbench's TPC-B (16 clients, scale 10, `--pgbench-seconds`)
// in a database of its own on the same cluster (scripts/lib/pgbench.ts);
// (2) one buyer — every client orders with BENCH_API_KEY; (3) N buyers —
// client i orders with key i mod N of BENCH_KEYS_FILE (`--buyers N`). Every
// order has its own downstream_order_no (a run id + index), so each one
// debits and delivers. Each order phase is warmed up, then starts as
// pgbench's run does (its tables, holding rows, vacuumed and analysed, a
// checkpoint just taken) and prints what one order of its measured run cost
// (scripts/lib/order-costs.ts): PostgreSQL CPU, app CPU, WAL bytes,
// transactions. (4) With BENCH_LARGE_SKU_ID, one order of 10,000 keys and one
// of 100,000 (scripts/lib/large-orders.ts). Then every target with `met`.
import { pathOf } from "../lib/protocol/endpoints";
import { PROFILE_PREFIXES } from "../lib/protocol/profiles";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "pg";
import { Pool } from "undici";
import { connectDatabase } from "../lib/db/connect";
import { arg, runFor, type LoadResult } from "./lib/load";
import { coresInfo, listeningPid, perOrder, postmasterPid, sample } from "./lib/order-costs";
import { largeOrderPhase } from "./lib/large-orders";
import { runPgbench } from "./lib/pgbench";
import { signedHeaders, type SupplierCredentials } from "./lib/signed-fetch";

const baseUrl = (arg("base-url", "BENCH_BASE_URL", "http://127.0.0.1:3000") as string).replace(/\/+$/, "");
const apiKey = arg("api-key", "BENCH_API_KEY");
const apiSecret = arg("api-secret", "BENCH_API_SECRET");
const keysFile = arg("keys-file", "BENCH_KEYS_FILE");
const skuId = Number(arg("sku-id", "BENCH_SKU_ID"));
const c = Number(arg("c", "BENCH_C", "32"));
const seconds = Number(arg("seconds", "BENCH_SECONDS", "10"));
const warmSeconds = Number(arg("warm-seconds", "BENCH_WARM_SECONDS", "2"));
const buyers = Number(arg("buyers", "BENCH_BUYERS", keysFile ? String(c) : "0"));
const largeSkuId = Number(arg("large-sku-id", "BENCH_LARGE_SKU_ID", "0"));
const pgbenchSeconds = Number(arg("pgbench-seconds", "BENCH_PGBENCH_SECONDS", String(seconds)));
const profile = arg("profile", "BENCH_PROFILE", "upstream") as string;
const prefix = arg("prefix", "BENCH_PREFIX", PROFILE_PREFIXES[profile === "provider" ? "P" : "U"][0]) as string;

if (!apiKey || !apiSecret || !Number.isInteger(skuId) || skuId <= 0 || (buyers > 0 && !keysFile)) {
  console.error(
    "usage: npm run bench:orders -- --base-url URL --api-key KEY --api-secret SECRET --sku-id ID [--keys-file FILE --buyers N] [--c 32] [--seconds 10] [--warm-seconds 2] [--pgbench-seconds 10, 0 skips] [--large-sku-id ID] [--profile upstream|provider]",
  );
  console.error(
    "(or BENCH_BASE_URL, BENCH_API_KEY, BENCH_API_SECRET, BENCH_SKU_ID, BENCH_KEYS_FILE, BENCH_BUYERS, BENCH_C, BENCH_SECONDS, BENCH_PROFILE)",
  );
  process.exit(2);
}
const one: SupplierCredentials = { apiKey, apiSecret };
const many: SupplierCredentials[] = buyers > 0 ? readKeys(keysFile!, buyers) : [];
const ordersUrl = new URL(`${baseUrl}${prefix}${pathOf("createOrder")}`);
// undici, as the catalogue readers (scripts/lib/read-clients.ts): node:http's client took about three
// times its CPU a request, taken from the same two cores the server is measured on.
const pool = new Pool(ordersUrl.origin, { connections: c });
const run = crypto.randomBytes(4).toString("hex");

function readKeys(file: string, n: number): SupplierCredentials[] {
  const list = JSON.parse(fs.readFileSync(file, "utf8")) as { api_key: string; api_secret: string }[];
  if (list.length < n) throw new Error(`${file} holds ${list.length} keys, --buyers asks for ${n}`);
  return list.slice(0, n).map((k) => ({ apiKey: k.api_key, apiSecret: k.api_secret }));
}

// Profile U answers `delivered` when auto delivery finished; Profile P always `processing` (D19).
const expected = prefix.includes("provider") ? "processing" : "delivered";
let seq = 0;
async function order(creds: SupplierCredentials): Promise<true | string> {
  const body = JSON.stringify({ downstream_order_no: `bench-${run}-${seq++}`, sku_id: skuId, quantity: 1 });
  const res = await pool.request({
    path: ordersUrl.pathname,
    method: "POST",
    headers: { ...signedHeaders(creds, "POST", ordersUrl.pathname, body), "Content-Type": "application/json" },
    body,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) return failure(res.statusCode, text);
  const status = (JSON.parse(text) as { status?: string }).status;
  return status === expected ? true : `status:${status}`;
}

function failure(status: number, body: string): string {
  let code = "";
  try {
    code = (JSON.parse(body) as { error_code?: string }).error_code ?? "";
  } catch {
    // not JSON
  }
  return `http:${status}${code ? `:${code}` : ""}`;
}

const summary = (r: LoadResult) => ({
  per_s: r.requests_per_second,
  p50_ms: r.p50_ms,
  p99_ms: r.p99_ms,
  max_ms: r.max_ms,
  requests: r.requests,
  errors: r.errors,
  error_kinds: r.errorKinds,
});

const cores = coresInfo();
console.error(`cores: ${cores.cores} (affinity ${cores.affinity ?? "unknown"}, machine ${cores.machine_cores})`);
const conn = await connectDatabase();
const pgbench = pgbenchSeconds > 0 ? await runPgbench(conn.adminUrl ?? conn.url, { seconds: pgbenchSeconds }) : null;
const client = new Client({ connectionString: conn.adminUrl ?? conn.url });
await client.connect();
const probe = { client, pgPid: await postmasterPid(client), appPid: listeningPid(Number(ordersUrl.port || 80)) };

/**
 * A phase: warmed up, then started as pgbench's run starts, then measured, with
 * what one order of the measured run cost. A backend reports its transactions
 * to the statistics up to 10 s after it went idle (PGSTAT_IDLE_INTERVAL): the
 * samples wait that long.
 *
 * Issue 40.5 (decision 0102): the warm-up comes before the vacuum, as
 * pgbench's tables hold their rows when `pgbench -i` analyses them. Analysed
 * while still empty, the order tables read as empty to the planner, and the
 * foreign-key checks into "Order" (four an order) kept sequential-scan plans
 * while the table grew by thousands of rows in the run: 18,000 scans reading
 * 34 million rows, twice PostgreSQL's CPU per order, in the first phase after
 * every fresh set-up.
 */
async function costedPhase(task: (client: number) => Promise<true | string>) {
  if (warmSeconds > 0) await runFor(warmSeconds, c, task);
  await startAsPgbenchDoes();
  await sleep(STATS_DELAY_MS);
  const before = await sample(probe);
  const result = await runFor(seconds, c, task);
  await sleep(STATS_DELAY_MS);
  const placed = result.requests - result.errors;
  return { ...summary(result), cost_per_order: await perOrder(probe, before, await sample(probe), placed) };
}
const STATS_DELAY_MS = 10_500;

/**
 * Each order phase starts from where pgbench's measured run starts
 * (scripts/lib/pgbench.ts): its tables vacuumed and analysed (`pgbench -i`
 * does so) and a checkpoint just taken. Without this a phase paid for what
 * came before it (the set-up's or the previous phase's dead rows vacuumed, the
 * previous load's dirty pages written by a checkpoint in the middle of its
 * run), while the yardstick never did. A role that may not (a DATABASE_URL without those rights) is told, and measured as it is.
 */
async function startAsPgbenchDoes() {
  try {
    await client.query("VACUUM (ANALYZE)");
    await client.query("CHECKPOINT");
  } catch (err) {
    console.error(`bench:orders: the phase starts without vacuum and checkpoint: ${(err as Error).message}`);
  }
}

const oneBuyer = await costedPhase(() => order(one));
const nBuyers = many.length ? await costedPhase((i) => order(many[i % many.length])) : undefined;
// Issue 40.3: one order of 10,000 keys, then one of 100,000 (bench:setup with BENCH_LARGE_KEYS=110000).
const large = largeSkuId > 0 ? await largeOrderPhase({ baseUrl, apiKey, apiSecret, skuId: largeSkuId }) : [];
await client.end();
await conn.stop?.();
const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
const target = (figure: number | null, limit: number, atMost = false) => ({
  figure,
  target: `${atMost ? "<=" : ">="} ${limit}`,
  met: figure !== null && (atMost ? figure <= limit : figure >= limit),
});
// Issue 40.1's targets.
const targets = {
  n_buyers_of_pgbench_tps: target(nBuyers && pgbench ? ratio(nBuyers.per_s, pgbench.tps) : null, 0.5),
  n_buyers_p99_ms: target(nBuyers ? nBuyers.p99_ms : null, 100, true),
  one_buyer_of_n_buyers: target(nBuyers ? ratio(oneBuyer.per_s, nBuyers.per_s) : null, 0.8),
  ...Object.fromEntries(large.map((l) => [`large_order_${l.keys}_keys_s`, target(l.seconds, l.target_seconds, true)])),
  errors: target(oneBuyer.errors + (nBuyers?.errors ?? 0), 0, true),
};
console.log(
  JSON.stringify(
    {
      endpoint: `POST ${prefix}${pathOf("createOrder")}`,
      ...cores,
      load_average: os.loadavg().map((x) => Math.round(x * 100) / 100),
      sku_id: skuId,
      concurrency: c,
      seconds,
      pgbench_tpcb: pgbench,
      one_buyer: oneBuyer,
      ...(nBuyers ? { [`buyers_${many.length}`]: nBuyers } : {}),
      large_orders: large,
      targets,
      met: Object.values(targets).every((t) => t.met),
    },
    null,
    2,
  ),
);
await pool.close();
process.exit(0);
