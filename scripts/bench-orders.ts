// `npm run bench:orders`: throughput of POST {prefix}/orders for an
// auto-delivered SKU. Starts nothing: point it at a running server
// (`npm start`) with a buyer that has enough points, an API key, an `auto`
// SKU with at least N (+ warm-up) card keys, and rate limits high enough for
// the run (settings rateLimitPerKey/rateLimitPerIp).
//
//   BENCH_BASE_URL=http://127.0.0.1:3000 BENCH_API_KEY=sk_... BENCH_API_SECRET=... BENCH_SKU_ID=1 \
//     npm run bench:orders -- --n 2000 --c 32 --profile upstream
//
// Every order has its own downstream_order_no (a run id + index), so each one
// debits and delivers. Prints JSON: orders/s, p50, p99, errors (by kind).
import { pathOf } from "../lib/protocol/endpoints";
import { PROFILE_PREFIXES } from "../lib/protocol/profiles";
import crypto from "node:crypto";
import { arg, runLoad } from "./lib/load";
import { makeAgent, signedHttpRequest } from "./lib/signed-fetch";

const baseUrl = (arg("base-url", "BENCH_BASE_URL", "http://127.0.0.1:3000") as string).replace(/\/+$/, "");
const apiKey = arg("api-key", "BENCH_API_KEY");
const apiSecret = arg("api-secret", "BENCH_API_SECRET");
const skuId = Number(arg("sku-id", "BENCH_SKU_ID"));
const n = Number(arg("n", "BENCH_N", "2000"));
const c = Number(arg("c", "BENCH_C", "32"));
const warm = Number(arg("warm", "BENCH_WARM", "100"));
const profile = arg("profile", "BENCH_PROFILE", "upstream") as string;
const prefix = arg("prefix", "BENCH_PREFIX", PROFILE_PREFIXES[profile === "provider" ? "P" : "U"][0]) as string;

if (!apiKey || !apiSecret || !Number.isInteger(skuId) || skuId <= 0) {
  console.error(
    "usage: npm run bench:orders -- --base-url URL --api-key KEY --api-secret SECRET --sku-id ID [--n 2000] [--c 32] [--warm 100] [--profile upstream|provider]",
  );
  console.error("(or BENCH_BASE_URL, BENCH_API_KEY, BENCH_API_SECRET, BENCH_SKU_ID, BENCH_N, BENCH_C, BENCH_WARM, BENCH_PROFILE)");
  process.exit(2);
}
const creds = { apiKey, apiSecret };
const url = new URL(`${baseUrl}${prefix}${pathOf("createOrder")}`);
const agent = makeAgent(c);
const run = crypto.randomBytes(4).toString("hex");

// Profile U answers `delivered` when auto delivery finished; Profile P always `processing` (D19).
const expected = prefix.includes("provider") ? "processing" : "delivered";
async function order(tag: string, i: number): Promise<true | string> {
  const body = JSON.stringify({ downstream_order_no: `bench-${run}-${tag}-${i}`, sku_id: skuId, quantity: 1 });
  const res = await signedHttpRequest(agent, creds, url, "POST", body);
  if (res.status !== 200) {
    let code = "";
    try {
      code = (JSON.parse(res.body.toString("utf8")) as { error_code?: string }).error_code ?? "";
    } catch {
      // not JSON
    }
    return `http:${res.status}${code ? `:${code}` : ""}`;
  }
  const status = (JSON.parse(res.body.toString("utf8")) as { status?: string }).status;
  return status === expected ? true : `status:${status}`;
}

// Warm-up (JIT, keep-alive sockets, connection pool), not measured.
if (warm > 0) {
  const w = await runLoad(warm, c, (i) => order("warm", i));
  if (w.errors === warm) {
    console.error(`every warm-up order failed: ${JSON.stringify(w.errorKinds)}`);
    process.exit(1);
  }
}
const result = await runLoad(n, c, (i) => order("run", i));

console.log(
  JSON.stringify(
    {
      endpoint: `POST ${prefix}${pathOf("createOrder")}`,
      sku_id: skuId,
      orders: n,
      concurrency: c,
      orders_per_s: result.requests_per_second,
      p50_ms: result.p50_ms,
      p99_ms: result.p99_ms,
      max_ms: result.max_ms,
      errors: result.errors,
      error_kinds: result.errorKinds,
      seconds: result.seconds,
      target_orders_per_s: 400,
    },
    null,
    2,
  ),
);
agent.destroy();
