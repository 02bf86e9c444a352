// `npm run bench:catalog-scale` (issue 13.4, 28.2-28.3): the catalogue at a big
// supplier's size. Starts its own server (`npm start`'s script, a scratch
// DATA_DIR unless DATABASE_URL is set, a free port), provisions through ONE
// real `catalog:import` of one file into the fresh shop: 10,000 products
// (20,000 auto SKUs) with their 1,000,000 card keys (timed: seconds, keys/s,
// the CLI's peak RSS; issue 28.3; a buyer, its key and raised rate limits are
// made first, and page 1 is read every second during the import), times how
// long after the CLI returns a paged walk lists every imported product
// ("listed after import", issue 33.9, target 2 s), then after
// --warmup-seconds of the same load (dropped) for --seconds measures with
// --c clients products pages of 100 at random pages (3 clients in 4) and
// product details (1 in 4), each kind from a process of its own
// (scripts/lib/read-clients.ts), while orders are placed open-loop at
// --order-rate per second with the staleness probe of scripts/lib/scale-orders.ts
// and the server's RSS is sampled; in --rounds rounds alternating with
// --baseline-seconds in all of the same readers against a bare node:http server
// answering a page and a detail as ours did (scripts/lib/bare-baseline.ts): the
// machine's ceiling, the targets as ratios of it (issue 28.2). --accept identity:
// readers take answers uncompressed (default gzip); --check-every N: they parse every N-th (default 20). Prints one JSON object.
//   npm run bench:catalog-scale [-- --products 10000 --keys 1000000 --seconds 30 --c 32 --order-rate 100 --warmup-seconds 5 --baseline-seconds 10 --rounds 5 --accept gzip --check-every 20 --port P]
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadEnvOrExit } from "../lib/config/env";
import { pathOf } from "../lib/protocol/endpoints";
import { PROFILE_PREFIXES } from "../lib/protocol/profiles";
import { importWhileRead, type ScalePage, walkScaleCatalog, writeScaleCatalog } from "./lib/catalog-scale-file";
import { arg } from "./lib/load";
import { orderAgents, placeOrders } from "./lib/scale-orders";
import { freePort, procMemoryMb, runCli, startServer, type ScaleServer } from "./lib/scale-server";
import { makeAgent, signedHttpRequest } from "./lib/signed-fetch";
import { interleaved, median, startBareServer } from "./lib/bare-baseline";
import { startReaders } from "./lib/read-clients";
import { scaleTargets, targetLines } from "./lib/scale-targets";

const num = (name: string, env: string, fallback: number) => Number(arg(name, env, String(fallback)));
const products = num("products", "BENCH_PRODUCTS", 10_000);
const keys = num("keys", "BENCH_KEYS", 1_000_000);
const seconds = num("seconds", "BENCH_SECONDS", 30);
const c = num("c", "BENCH_C", 32);
const orderRate = num("order-rate", "BENCH_ORDER_RATE", 100);
const probeEvery = num("probe-every", "BENCH_PROBE_EVERY", 10);
const baselineSeconds = num("baseline-seconds", "BENCH_BASELINE_SECONDS", 10);
const warmupSeconds = num("warmup-seconds", "BENCH_WARMUP_SECONDS", 5);
const rounds = Math.max(1, num("rounds", "BENCH_ROUNDS", 5));
const accept = arg("accept", "BENCH_ACCEPT", "gzip") === "identity" ? "identity" : "gzip";
const readMode = { gzip: accept === "gzip", checkEvery: num("check-every", "BENCH_CHECK_EVERY", 20) };
const portArg = num("port", "BENCH_PORT", 0);
const port = portArg || (await freePort());
const run = crypto.randomBytes(3).toString("hex");

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-bench-scale-"));
fs.chmodSync(scratch, 0o755); // as root the embedded PostgreSQL runs as user postgres
// With DATABASE_URL the server and CLI use that database; otherwise an embedded one in the scratch folder.
const config = loadEnvOrExit("bench:catalog-scale");
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: config.DATABASE_URL ? config.DATA_DIR : path.join(scratch, "data"),
  LOG_LEVEL: "warn",
  ENABLE_BENCH_ROUTES: "1",
};
let server: ScaleServer | undefined;
const cleanups: (() => void)[] = []; // the readers' processes, the bare server
let code = 0;
// The machine's load when the run starts (the figures swing with it): printed with the setup.
const loadAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
try {
  // BENCH_SERVER_NODE_OPTIONS: node options for the server only, for profiling (`--cpu-prof`, `--trace-gc`).
  const serverEnv = process.env.BENCH_SERVER_NODE_OPTIONS ? { ...env, NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : env;
  server = await startServer({ port, env: serverEnv, log: path.join(scratch, "server.log") });
  const catalogFile = path.join(scratch, "catalog.json");
  await writeScaleCatalog(catalogFile, { run, products, keys });
  const fileBytes = fs.statSync(catalogFile).size;
  // The buyer and key first, so the catalogue is read as a client would while the import runs and right after it returns.
  const email = `scale-${run}@example.test`;
  await runCli(env, ["user:create", "--email", email, "--points", "100000000.00"]);
  const creds = (await runCli(env, ["apikey:create", "--email", email, "--name", "scale"])).json as { api_key: string; api_secret: string };
  await runCli(env, ["settings:set", "rate_limit_per_key=1000000", "rate_limit_per_ip=1000000"]);
  const auth = { apiKey: creds.api_key, apiSecret: creds.api_secret };
  const agent = makeAgent(1); // the catalogue walk below
  const get = async (p: string) => {
    const res = await signedHttpRequest(agent, auth, new URL(`${server!.baseUrl}${PROFILE_PREFIXES.U[0]}${p}`));
    if (res.status !== 200) throw new Error(`GET ${p}: HTTP ${res.status}`);
    return JSON.parse(res.body.toString("utf8")) as ScalePage;
  };
  const { imported, importedAt } = await importWhileRead(() => runCli(env, ["catalog:import", catalogFile]), get);
  fs.rmSync(catalogFile);
  const counts = imported.json as { card_keys_added: number; products_created: number };
  if (counts.card_keys_added !== keys || counts.products_created !== products)
    throw new Error(`expected ${products} products and ${keys} keys added, got ${JSON.stringify(imported.json)}`);
  // Every SKU of this run, by walking the catalogue (also warms the server).
  const { skus, pages, listedAfterMs, walkMs } = await walkScaleCatalog(get, { run, products, keys, importedAt });
  const listedAfter = round(listedAfterMs / 1000);
  console.error(`listed after import: ${listedAfter} s (target ≤ 2 s, met: ${listedAfter <= 2})`);
  if (skus.length !== products * 2) throw new Error(`found ${skus.length} of ${products * 2} SKUs in the catalogue`);

  const detailClients = Math.max(1, Math.round(c / 4));
  const readers = { page: startReaders(c - detailClients), detail: startReaders(detailClients) };
  cleanups.push(() => Object.values(readers).forEach((r) => r.stop()));
  const pagePaths = Array.from(
    { length: pages },
    (_, i) => `${PROFILE_PREFIXES.U[0]}${pathOf("listProducts")}?page_size=100&page=${i + 1}`,
  );
  const detailPaths = [...new Set(skus.map((s) => s.productId))].map((id) => `${PROFILE_PREFIXES.U[0]}${pathOf("getProduct", id)}`);
  const agents = orderAgents(orderRate, probeEvery);
  const read = (r: (typeof readers)["page"], base: string, paths: string[], secs: number) =>
    r.run({ ...auth, ...readMode, base, paths, seconds: secs });
  // Orders for `secs`; `tag` keeps each phase's order numbers apart (a repeated one would be a replay, D8).
  const orderFor = (secs: number, tag: string) =>
    placeOrders({ agents, creds: auth, baseUrl: server!.baseUrl, skus, seconds: secs, rate: orderRate, probeEvery, run: `${run}-${tag}` });
  // A warm-up opens every client's connections and warms the server's code paths; its figures are dropped, its bodies kept for bare.
  const [warmPage, warmDetail] = await Promise.all([
    read(readers.page, server.baseUrl, pagePaths, Math.max(1, warmupSeconds)),
    read(readers.detail, server.baseUrl, detailPaths, Math.max(1, warmupSeconds)),
    orderFor(Math.max(1, warmupSeconds), "warm"),
  ]);
  // Issue 40.2: bare answers each kind gzipped exactly when ours did (to a client that accepts gzip), precompressed once.
  const gzipped = async (p: string) =>
    (await signedHttpRequest(agent, auth, new URL(`${server!.baseUrl}${p}`))).headers["content-encoding"] === "gzip";
  const gzip = { page: await gzipped(pagePaths[0]), detail: await gzipped(detailPaths[0]) };
  const bareServer =
    baselineSeconds > 0
      ? await startBareServer({ pageBody: warmPage.sample, detailBody: warmDetail.sample, gzip, port: portArg ? portArg + 1 : undefined })
      : undefined;
  cleanups.push(() => bareServer?.stop());
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, procMemoryMb(server!.pid, "VmRSS") ?? 0)), 250);
  // Orders run through every round, ours and bare alike: both are read on the same busy machine (decision 0046).
  const ordering = orderFor(seconds + baselineSeconds, "run");
  const result = await interleaved({
    readers,
    read,
    ours: { base: server.baseUrl, pagePaths, detailPaths },
    bare: bareServer && { base: bareServer.base, pagePaths: ["/page"], detailPaths: ["/detail"] },
    rounds,
    seconds,
    bareSeconds: baselineSeconds,
  });
  const orders = await ordering;
  const [pageRead, detailRead] = [result.ours.page, result.ours.detail];
  const [pageLoad, detailLoad] = [pageRead.load, detailRead.load];
  clearInterval(sampler);
  const rssEnd = procMemoryMb(server.pid, "VmRSS") ?? 0;
  const bare = result.bare && { products_page: result.bare.page, product_detail: result.bare.detail };
  const vsBare = {
    page_p99: median(result.rounds.map((r) => r.page_p99)),
    pages_per_second: median(result.rounds.map((r) => r.pages_per_second)),
    detail_p99: median(result.rounds.map((r) => r.detail_p99)),
    rounds: result.rounds,
  };
  const staleMax = orders.staleness.unresolved ? Infinity : orders.staleness.max_ms;
  const targets = scaleTargets({
    ...{ importSeconds: round(imported.seconds), listedAfterSeconds: listedAfter, vsBare: bare && vsBare, serverRssMb: Math.round(rssMax) },
    ...{ pageP99Ms: pageLoad.p99_ms, detailP99Ms: detailLoad.p99_ms, staleMaxMs: staleMax, cliRssMb: imported.peakRssMb },
  });
  console.error(targetLines(targets)); // issue 40.2: every target, its figure and met, also in the JSON below
  console.log(
    JSON.stringify(
      {
        setup: {
          ...{ products, skus: skus.length, keys },
          cpus: os.availableParallelism(), // what taskset leaves it (targets.cores has the affinity)
          load_average_at_start: loadAtStart,
          warmup_seconds: warmupSeconds,
          rounds,
          seconds,
          clients: c,
          page_clients: c - detailClients,
          detail_clients: detailClients,
          order_rate: orderRate,
          probe_every: probeEvery,
          accept,
          check_every: readMode.checkEvery,
        },
        first_import: {
          file_mb: round(fileBytes / 1e6),
          seconds: round(imported.seconds),
          keys_per_second: Math.round(keys / imported.seconds),
          cli_peak_rss_mb: imported.peakRssMb,
          // Issue 33.9: from the CLI's return to page 1 of the first paged walk that lists every imported product.
          listed_after_seconds: listedAfter,
          listed_walk_ms: walkMs,
        },
        products_page: {
          bytes: pageRead.bytes,
          wire_bytes: pageRead.wireBytes,
          p50_ms: pageLoad.p50_ms,
          p99_ms: pageLoad.p99_ms,
          max_ms: pageLoad.max_ms,
          pages_per_second: pageLoad.requests_per_second,
          errors: pageLoad.errors,
          error_kinds: pageLoad.errorKinds,
        },
        product_detail: {
          bytes: detailRead.bytes,
          p50_ms: detailLoad.p50_ms,
          p99_ms: detailLoad.p99_ms,
          max_ms: detailLoad.max_ms,
          per_second: detailLoad.requests_per_second,
          errors: detailLoad.errors,
        },
        orders,
        server_rss_mb: { max: Math.round(rssMax), end: Math.round(rssEnd) },
        vs_bare: bare && vsBare,
        baseline_bare_node: bare && {
          seconds: baselineSeconds,
          products_page: {
            p50_ms: bare.products_page.p50_ms,
            p99_ms: bare.products_page.p99_ms,
            pages_per_second: bare.products_page.requests_per_second,
          },
          product_detail: {
            p50_ms: bare.product_detail.p50_ms,
            p99_ms: bare.product_detail.p99_ms,
            per_second: bare.product_detail.requests_per_second,
          },
        },
        targets,
      },
      null,
      2,
    ),
  );
} catch (err) {
  console.error(`bench:catalog-scale: ${(err as Error).message}`);
  code = 1;
} finally {
  cleanups.forEach((f) => f());
  await server?.stop().catch(() => undefined);
  // The server's warnings (e.g. slow catalogue refreshes) explain figures that miss a target.
  const serverLog = path.join(scratch, "server.log");
  if (fs.existsSync(serverLog))
    console.error(
      fs
        .readFileSync(serverLog, "utf8")
        .split("\n")
        .filter((l) => /"level":(4|5)0/.test(l))
        .slice(-30)
        .join("\n"),
    );
  if (code === 0) fs.rmSync(scratch, { recursive: true, force: true });
  else console.error(`bench:catalog-scale: scratch kept for a look: ${scratch}`);
}
process.exit(code);

function round(x: number) {
  return Math.round(x * 100) / 100;
}
