// `npm run bench:catalog`: throughput of GET {prefix}/products?page_size=100
// against a trivial route handler returning the same number of bytes, in one
// run. Starts nothing: point it at a running server built and started
// with ENABLE_BENCH_ROUTES=1 (for /api/bench/fixed, absent from a production
// build: docs/benchmarks.md) and a rate limit high
// enough for the run (settings rateLimitPerKey/rateLimitPerIp; 0 = off).
//
//   BENCH_BASE_URL=http://127.0.0.1:3000 BENCH_API_KEY=sk_... BENCH_API_SECRET=... \
//     npm run bench:catalog -- --n 2000 --c 32 [--prefix PREFIX]   (one of the four; default Profile U's primary)
//
// Prints JSON: requests/s, p50, p99, errors for both, and their ratio
// (target: catalogue ≥ 0.5 × baseline).
import { pathOf } from "../lib/protocol/endpoints";
import { arg, runLoad } from "./lib/load";
import { httpRequest, makeAgent, signedHttpRequest } from "./lib/signed-fetch";
import { PROFILE_PREFIXES } from "../lib/protocol/profiles";

const baseUrl = (arg("base-url", "BENCH_BASE_URL", "http://127.0.0.1:3000") as string).replace(/\/+$/, "");
const apiKey = arg("api-key", "BENCH_API_KEY");
const apiSecret = arg("api-secret", "BENCH_API_SECRET");
const n = Number(arg("n", "BENCH_N", "2000"));
const c = Number(arg("c", "BENCH_C", "32"));
const prefix = arg("prefix", "BENCH_PREFIX", PROFILE_PREFIXES.U[0]) as string;
const pageSize = Number(arg("page-size", "BENCH_PAGE_SIZE", "100"));

if (!apiKey || !apiSecret) {
  console.error(
    `usage: npm run bench:catalog -- --base-url URL --api-key KEY --api-secret SECRET [--n 2000] [--c 32] [--prefix ${PROFILE_PREFIXES.U[0]}]`,
  );
  console.error("(or BENCH_BASE_URL, BENCH_API_KEY, BENCH_API_SECRET, BENCH_N, BENCH_C, BENCH_PREFIX)");
  process.exit(2);
}
if (prefix.includes("/provider")) {
  // D8: Profile P refuses a repeated (key, timestamp, signature), and a GET's
  // signature covers only method, path and timestamp, so one key can send at
  // most one such request per second and path. A throughput run is Profile U.
  console.error("bench:catalog measures Profile U: Profile P's replay rule (D8) allows one identical signed GET per key, path and second.");
  process.exit(2);
}
const creds = { apiKey, apiSecret };
const catalogUrl = new URL(`${baseUrl}${prefix}${pathOf("listProducts")}?page_size=${pageSize}`);
const agent = makeAgent(c);

// One probe: the catalogue works and tells the baseline how many bytes to return.
const probe = await signedHttpRequest(agent, creds, catalogUrl);
if (probe.status !== 200) {
  console.error(`catalogue probe failed: HTTP ${probe.status} ${probe.body.toString("utf8").slice(0, 300)}`);
  process.exit(1);
}
const bytes = probe.body.length;
const fixedUrl = new URL(`${baseUrl}/api/bench/fixed?bytes=${bytes}`);
const fixedProbe = await httpRequest(agent, fixedUrl, "GET", {});
if (fixedProbe.status !== 200 || fixedProbe.body.length !== bytes) {
  console.error(
    `baseline route unavailable (HTTP ${fixedProbe.status}): build and start the server with ENABLE_BENCH_ROUTES=1 (the route is not in a production build)`,
  );
  process.exit(1);
}
const items = (JSON.parse(probe.body.toString("utf8")) as { items: unknown[] }).items.length;

const ok = (status: number): true | string => (status === 200 ? true : `http:${status}`);
const warm = Math.min(200, n);
// Warm both paths (JIT, keep-alive sockets, the catalogue snapshot) before measuring.
await runLoad(warm, c, async () => ok((await httpRequest(agent, fixedUrl, "GET", {})).status));
await runLoad(warm, c, async () => ok((await signedHttpRequest(agent, creds, catalogUrl)).status));

const baseline = await runLoad(n, c, async () => ok((await httpRequest(agent, fixedUrl, "GET", {})).status));
const catalog = await runLoad(n, c, async () => ok((await signedHttpRequest(agent, creds, catalogUrl)).status));

console.log(
  JSON.stringify(
    {
      endpoint: `GET ${prefix}${pathOf("listProducts")}?page_size=${pageSize}`,
      response_bytes: bytes,
      items_per_page: items,
      catalog,
      baseline: { endpoint: `GET /api/bench/fixed?bytes=${bytes}`, ...baseline },
      ratio: Math.round((catalog.requests_per_second / baseline.requests_per_second) * 1000) / 1000,
      target_ratio: 0.5,
    },
    null,
    2,
  ),
);
agent.destroy();
