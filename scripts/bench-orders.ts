// `npm run bench:orders`: throughput of POST {prefix}/orders for an
// auto-delivered SKU. Starts nothing: point it at a running server
// (`npm start`) prepared by `npm run bench:setup` (buyers with enough points,
// API keys, an `auto` SKU with enough card keys, rate limits high enough).
//
//   BENCH_BASE_URL=http://127.0.0.1:3000 BENCH_API_KEY=sk_... BENCH_API_SECRET=... BENCH_SKU_ID=1 \
//     BENCH_KEYS_FILE=/tmp/bench-keys-....json npm run bench:orders -- --c 32 --seconds 10 --buyers 32
//
// Issue 28.1: one run measures, one after the other, for `--seconds` each at
// `--c` clients: (1) one buyer — every client orders with BENCH_API_KEY;
// (2) N buyers — client i orders with key i mod N of BENCH_KEYS_FILE
// (`--buyers N`, 0 skips it); (3) the same server's signed cached read
// (GET {prefix}/categories with BENCH_API_KEY), the ceiling both are
// compared with. Every order has its own downstream_order_no (a run id +
// index), so each one debits and delivers. Prints JSON: per phase orders/s
// (reads/s), p50, p99, errors (by kind), and the ratios the issue targets.
import { pathOf } from "../lib/protocol/endpoints";
import { PROFILE_PREFIXES } from "../lib/protocol/profiles";
import crypto from "node:crypto";
import fs from "node:fs";
import { arg, runFor, type LoadResult } from "./lib/load";
import { makeAgent, signedHttpRequest, type SupplierCredentials } from "./lib/signed-fetch";

const baseUrl = (arg("base-url", "BENCH_BASE_URL", "http://127.0.0.1:3000") as string).replace(/\/+$/, "");
const apiKey = arg("api-key", "BENCH_API_KEY");
const apiSecret = arg("api-secret", "BENCH_API_SECRET");
const keysFile = arg("keys-file", "BENCH_KEYS_FILE");
const skuId = Number(arg("sku-id", "BENCH_SKU_ID"));
const c = Number(arg("c", "BENCH_C", "32"));
const seconds = Number(arg("seconds", "BENCH_SECONDS", "10"));
const warmSeconds = Number(arg("warm-seconds", "BENCH_WARM_SECONDS", "2"));
const buyers = Number(arg("buyers", "BENCH_BUYERS", keysFile ? String(c) : "0"));
const profile = arg("profile", "BENCH_PROFILE", "upstream") as string;
const prefix = arg("prefix", "BENCH_PREFIX", PROFILE_PREFIXES[profile === "provider" ? "P" : "U"][0]) as string;

if (!apiKey || !apiSecret || !Number.isInteger(skuId) || skuId <= 0 || (buyers > 0 && !keysFile)) {
  console.error(
    "usage: npm run bench:orders -- --base-url URL --api-key KEY --api-secret SECRET --sku-id ID [--keys-file FILE --buyers N] [--c 32] [--seconds 10] [--warm-seconds 2] [--profile upstream|provider]",
  );
  console.error(
    "(or BENCH_BASE_URL, BENCH_API_KEY, BENCH_API_SECRET, BENCH_SKU_ID, BENCH_KEYS_FILE, BENCH_BUYERS, BENCH_C, BENCH_SECONDS, BENCH_PROFILE)",
  );
  process.exit(2);
}
const one: SupplierCredentials = { apiKey, apiSecret };
const many: SupplierCredentials[] = buyers > 0 ? readKeys(keysFile!, buyers) : [];
const ordersUrl = new URL(`${baseUrl}${prefix}${pathOf("createOrder")}`);
const readUrl = new URL(`${baseUrl}${prefix}${pathOf("listCategories")}`);
const agent = makeAgent(c);
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
  const res = await signedHttpRequest(agent, creds, ordersUrl, "POST", body);
  if (res.status !== 200) return failure(res);
  const status = (JSON.parse(res.body.toString("utf8")) as { status?: string }).status;
  return status === expected ? true : `status:${status}`;
}

async function read(): Promise<true | string> {
  const res = await signedHttpRequest(agent, one, readUrl, "GET");
  return res.status === 200 ? true : failure(res);
}

function failure(res: { status: number; body: Buffer }): string {
  let code = "";
  try {
    code = (JSON.parse(res.body.toString("utf8")) as { error_code?: string }).error_code ?? "";
  } catch {
    // not JSON
  }
  return `http:${res.status}${code ? `:${code}` : ""}`;
}

/** C clients for `seconds`, client w calling task(w); a warm-up of the same load first, not measured. */
async function phase(task: (client: number) => Promise<true | string>): Promise<LoadResult> {
  if (warmSeconds > 0) await runFor(warmSeconds, c, task);
  return runFor(seconds, c, task);
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

const oneBuyer = await phase(() => order(one));
const nBuyers = many.length ? await phase((i) => order(many[i % many.length])) : undefined;
const cachedRead = await phase(() => read());
const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;

console.log(
  JSON.stringify(
    {
      endpoint: `POST ${prefix}${pathOf("createOrder")}`,
      sku_id: skuId,
      concurrency: c,
      seconds,
      one_buyer: summary(oneBuyer),
      ...(nBuyers ? { [`buyers_${many.length}`]: summary(nBuyers) } : {}),
      signed_cached_read: { endpoint: `GET ${prefix}/categories`, ...summary(cachedRead) },
      ratios: {
        ...(nBuyers ? { one_buyer_of_n_buyers: ratio(oneBuyer.requests_per_second, nBuyers.requests_per_second) } : {}),
        ...(nBuyers ? { n_buyers_of_cached_read: ratio(nBuyers.requests_per_second, cachedRead.requests_per_second) } : {}),
        one_buyer_of_cached_read: ratio(oneBuyer.requests_per_second, cachedRead.requests_per_second),
      },
      // Issue 28.1's targets.
      targets: { one_buyer_of_n_buyers: 0.8, n_buyers_of_cached_read: 0.35, p99_ms: 100 },
    },
    null,
    2,
  ),
);
agent.destroy();
