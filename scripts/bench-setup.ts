// `npm run bench:setup`: prepares a running (or stopped) installation for the
// benchmarks through the ops CLI — a buyer with plenty of points, an API key,
// an `auto` product with enough card keys, a catalogue of 150 products, rate
// limits raised for the run — and prints the BENCH_* variables to export.
// Issue 28.1: also BENCH_BUYERS (default 32) more buyers with a key each, for
// `bench:orders --buyers N`, written to the BENCH_KEYS_FILE it prints.
// Issue 40.3: BENCH_LARGE_KEYS (default 0) > 0 adds one more `auto` SKU holding
// that many keys, imported the same way, for `bench:orders`'s large-order phase; it prints BENCH_LARGE_SKU_ID.
// Uses the same DATA_DIR / DATABASE_URL configuration as the server.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const keys = Number(process.env.BENCH_KEYS ?? 10_000);
const buyers = Number(process.env.BENCH_BUYERS ?? 32);
const largeKeys = Number(process.env.BENCH_LARGE_KEYS ?? 0);
const run = crypto.randomBytes(3).toString("hex");

function cli<T = unknown>(...args: string[]): T {
  const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { encoding: "utf8" });
  return JSON.parse(out.trimEnd().split("\n").at(-1)!) as T;
}

const lang = (s: string) => ({ "zh-CN": s, en: s });
const product = (slug: string, cardKeys: string[]) => ({
  slug,
  category: `bench-${run}`,
  title: lang(slug),
  description: lang("benchmark product"),
  content: lang("Benchmark product ![logo](/uploads/logo.png) with some detail text. ".repeat(4)),
  fulfillment_type: "auto",
  delivery_format: "text",
  delivery_delimiter: "----",
  price_amount: "1.00",
  original_price: "2.00",
  is_active: true,
  logo: "/uploads/logo.png",
  images: ["/uploads/a.png", "/uploads/b.png"],
  manual_form_schema: { fields: [] },
  skus: [
    {
      sku_code: `${slug}-sku`,
      spec_values: { name: "1" },
      price_amount: "1.00",
      is_active: true,
      stock_quantity: null,
      card_keys: cardKeys,
    },
  ],
});
const file = path.join(os.tmpdir(), `bench-catalog-${run}.json`);
fs.writeFileSync(
  file,
  JSON.stringify({
    categories: [{ slug: `bench-${run}`, name: lang("Bench"), sort_order: 0, parent: null }],
    products: [
      product(
        `bench-${run}-orders`,
        Array.from({ length: keys }, (_, i) => `BENCH-${run}-${i}-${crypto.randomBytes(6).toString("hex")}`),
      ),
      ...Array.from({ length: 149 }, (_, i) => product(`bench-${run}-p${i}`, [`K-${run}-${i}`])),
    ],
  }),
);
cli("catalog:import", file);
// The large SKU's keys in files of at most 100,000 (a SKU's limit per catalogue file); each import appends.
for (let from = 0; from < largeKeys; from += 100_000) {
  const chunk = Array.from(
    { length: Math.min(100_000, largeKeys - from) },
    (_, i) => `LARGE-${run}-${from + i}-${crypto.randomBytes(6).toString("hex")}`,
  );
  fs.writeFileSync(
    file,
    JSON.stringify({
      categories: [{ slug: `bench-${run}`, name: lang("Bench"), sort_order: 0, parent: null }],
      products: [product(`bench-${run}-large`, chunk)],
    }),
  );
  cli("catalog:import", file);
}
fs.rmSync(file);
const email = `bench-${run}@example.test`;
// Enough for the order benchmarks and, at 1.00 a key, every large key.
cli("user:create", "--email", email, "--points", `${10_000_000 + largeKeys}.00`);
const key = cli<{ api_key: string; api_secret: string }>("apikey:create", "--email", email, "--name", "bench");
cli("settings:set", "rate_limit_per_key=1000000", "rate_limit_per_ip=1000000");

// The SKU id: the CLI prints counts only, so read it with the same configuration.
const { connectDatabase } = await import("../lib/db/connect");
const { db, disconnectDb } = await import("../lib/db/client");
const conn = await connectDatabase();
const sku = await db().sku.findUniqueOrThrow({ where: { skuCode: `bench-${run}-orders-sku` } });
const largeSku = largeKeys > 0 ? await db().sku.findUniqueOrThrow({ where: { skuCode: `bench-${run}-large-sku` } }) : null;
// The N buyers in this process, not the CLI: one CLI start per call would take minutes.
const { createUser } = await import("../lib/users/create-user");
const { createApiKey } = await import("../lib/credentials/create-api-key");
const { CLI_ACTOR } = await import("../lib/audit/actor");
const many: { api_key: string; api_secret: string }[] = [];
for (let i = 0; i < buyers; i++) {
  const user = await createUser({ email: `bench-${run}-${i}@example.test`, initialPointsCents: 1_000_000_000n, actor: CLI_ACTOR });
  const { apiKey, apiSecret } = await createApiKey({ userId: user.id, name: "bench", actor: CLI_ACTOR });
  many.push({ api_key: apiKey, api_secret: apiSecret });
}
const keysFile = path.join(os.tmpdir(), `bench-keys-${run}.json`);
fs.writeFileSync(keysFile, JSON.stringify(many), { mode: 0o600 });
await disconnectDb();
await conn.stop?.();
console.log(
  JSON.stringify({
    note: "export these, then run npm run bench:orders / bench:catalog against the server",
    BENCH_API_KEY: key.api_key,
    BENCH_API_SECRET: key.api_secret,
    BENCH_SKU_ID: sku.id,
    BENCH_KEYS_FILE: keysFile,
    ...(largeSku ? { BENCH_LARGE_SKU_ID: largeSku.id } : {}),
  }),
);
process.exit(0);
