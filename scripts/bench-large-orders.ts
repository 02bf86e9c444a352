// `npm run bench:large-orders`: issue 40.3's large orders alone (scripts/lib/large-orders.ts).
// Needs BENCH_BASE_URL, BENCH_API_KEY, BENCH_API_SECRET and BENCH_LARGE_SKU_ID (bench:setup with BENCH_LARGE_KEYS).
import os from "node:os";
import { largeOrderPhase } from "./lib/large-orders";

const env = (name: string) => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
const results = await largeOrderPhase({
  baseUrl: env("BENCH_BASE_URL"),
  apiKey: env("BENCH_API_KEY"),
  apiSecret: env("BENCH_API_SECRET"),
  skuId: Number(env("BENCH_LARGE_SKU_ID")),
});
console.log(JSON.stringify({ load_average: os.loadavg().map((l) => Math.round(l * 100) / 100), large_orders: results }, null, 2));
