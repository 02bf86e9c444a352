// `npm run bench:card-key-upload` (issue 13.3): the console's card-key upload
// at its largest, 20,000 keys, timed through the services the console's
// actions call: previewCardKeys (what the administrator sees first) and
// confirmCardKeys (the write; target 50,000 keys/s). Uses a scratch embedded
// PostgreSQL under a temporary DATA_DIR (or BENCH_DATABASE_URL's server); one
// product of two SKUs made by the real catalogue import; --rounds uploads,
// alternating SKUs, so later ones land on SKUs that already hold keys.
//
//   npm run bench:card-key-upload [-- --rounds 6]
//
// Prints one JSON object: each round's figures, the medians, the target.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { useScratchDatabase } from "./lib/scratch-database";
import { arg, percentile } from "./lib/load";
import { skuCode, writeScaleCatalog } from "./lib/catalog-scale-file";

const rounds = Number(arg("rounds", "BENCH_ROUNDS", "6"));
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new Error("--rounds must be a whole number from 1 to 100");
const scratch = useScratchDatabase("cardkey-bench-upload-");

const { connectDatabase } = await import("../lib/db/connect");
const { applyMigrations } = await import("../lib/db/migrate");
const { db, disconnectDb } = await import("../lib/db/client");
const { createAdmin } = await import("../lib/admins/create-admin");
const { importCatalogFile } = await import("../lib/catalog/import-catalog-file");
const { MAX_CARD_KEY_LINES, previewCardKeys } = await import("../lib/catalog/preview-card-keys");
const { confirmCardKeys } = await import("../lib/catalog/confirm-card-keys");
const { adminActor, CLI_ACTOR } = await import("../lib/audit/actor");

const conn = await connectDatabase();
let code = 0;
try {
  await applyMigrations(conn.url);
  const run = crypto.randomBytes(3).toString("hex");
  const file = path.join(scratch, "catalog.json");
  await writeScaleCatalog(file, { run, products: 1, keys: 0 });
  await importCatalogFile({ path: file, actor: CLI_ACTOR });
  const skus = await db().sku.findMany({ where: { skuCode: { in: [skuCode(run, 0, 0), skuCode(run, 0, 1)] } }, orderBy: { id: "asc" } });
  const row = await createAdmin(
    { email: `upload-${run}@example.test`, password: crypto.randomBytes(12).toString("hex") },
    { actor: CLI_ACTOR },
  );
  const admin = { actor: adminActor({ id: row.id, ip: "127.0.0.1" }) };
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const skuId = skus[r % skus.length].id;
    const text = Array.from({ length: MAX_CARD_KEY_LINES }, (_, k) => `U-${run}-${r}-${k}-${crypto.randomBytes(6).toString("hex")}`).join(
      "\n",
    );
    let t = performance.now();
    const preview = await previewCardKeys(skuId, text, "txt");
    const previewMs = performance.now() - t;
    t = performance.now();
    const { preview: added } = await confirmCardKeys(
      { skuId, text, kind: "txt", source: "admin-upload", expectFresh: preview.fresh },
      admin,
    );
    const confirmMs = performance.now() - t;
    if (added.fresh !== MAX_CARD_KEY_LINES) throw new Error(`round ${r}: expected ${MAX_CARD_KEY_LINES} keys added, got ${added.fresh}`);
    results.push({
      keys: added.fresh,
      preview_ms: Math.round(previewMs),
      confirm_ms: Math.round(confirmMs),
      confirm_keys_per_second: Math.round(added.fresh / (confirmMs / 1000)),
    });
  }
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const keysPerSecond = median(results.map((x) => x.confirm_keys_per_second));
  console.log(
    JSON.stringify(
      {
        rounds: results,
        median: {
          preview_ms: median(results.map((x) => x.preview_ms)),
          confirm_ms: median(results.map((x) => x.confirm_ms)),
          confirm_keys_per_second: keysPerSecond,
        },
        target: { confirm_keys_per_second: 50_000, met: keysPerSecond >= 50_000 },
      },
      null,
      2,
    ),
  );
} catch (err) {
  console.error(err);
  code = 1;
} finally {
  await disconnectDb();
  await conn.stop?.();
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);
