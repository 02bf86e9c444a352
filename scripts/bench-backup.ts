// `npm run bench:backup`: backup and restore of 1,000,000 card keys and
// 200,000 orders (issue 10 item 3; target under 2 minutes each on the 2-core
// machine). Uses a scratch embedded PostgreSQL under a temporary DATA_DIR
// (or BENCH_DATABASE_URL's server), fills it with SQL, then times
// createBackup and restoreBackup into a new empty database on the same server.
// BENCH_CARD_KEYS / BENCH_ORDERS scale it down for a quick look.
import fs from "node:fs";
import path from "node:path";
import { useScratchDatabase } from "./lib/scratch-database";
import pg from "pg";

const CARD_KEYS = Number(process.env.BENCH_CARD_KEYS ?? 1_000_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
const scratch = useScratchDatabase("cardkey-bench-backup-");

const { connectDatabase } = await import("../lib/db/connect");
const { applyMigrations } = await import("../lib/db/migrate");
const { withDatabase } = await import("../lib/db/embedded");
const { createBackup } = await import("../lib/backup/create-backup");
const { restoreBackup } = await import("../lib/backup/restore-backup");
const { CLI_ACTOR } = await import("../lib/audit/actor");

const conn = await connectDatabase();
let code = 0;
try {
  await applyMigrations(conn.url);
  const client = new pg.Client({ connectionString: conn.url });
  await client.connect();
  let t = Date.now();
  await fill(client);
  const fillSeconds = (Date.now() - t) / 1000;
  await client.query("VACUUM ANALYZE");

  const archive = path.join(scratch, "bench.backup");
  t = Date.now();
  const backup = await createBackup({ out: archive, url: conn.url });
  const backupSeconds = (Date.now() - t) / 1000;

  const target = withDatabase(conn.url, `bench_restore_${Date.now()}`);
  await client.end();
  // Made by the embedded superuser for the app role, which may not create databases (decision 0035).
  const admin = new pg.Client({ connectionString: conn.adminUrl ?? conn.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${new URL(target).pathname.slice(1)}" OWNER "${decodeURIComponent(new URL(conn.url).username)}"`);
  await admin.end();
  t = Date.now();
  const restore = await restoreBackup({ in: archive, url: target, actor: CLI_ACTOR });
  const restoreSeconds = (Date.now() - t) / 1000;
  console.log(
    JSON.stringify({
      cardKeys: CARD_KEYS,
      orders: ORDERS,
      fillSeconds,
      backupSeconds,
      restoreSeconds,
      archiveBytes: backup.bytes,
      rows: backup.rows,
      restoredRows: restore.rows,
    }),
  );
} catch (err) {
  console.error(err);
  code = 1;
} finally {
  await conn.stop?.();
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);

/** One buyer, key, product and SKU; CARD_KEYS keys, ORDERS delivered orders of one key each with item, fulfillment and ledger entry. */
async function fill(c: pg.Client) {
  const user = "00000000-0000-4000-8000-000000000001";
  await c.query(
    `INSERT INTO "User" (id, email, "memberLevelId", "balanceCents", "updatedAt") SELECT $1, 'bench@example.test', id, $2, now() FROM "MemberLevel" ORDER BY id LIMIT 1`,
    [user, 1_000_000_000],
  );
  const cred = (
    await c.query<{ id: number }>(
      `INSERT INTO "ApiCredential" ("userId", "apiKey", "secretCiphertext", name) VALUES ($1, 'bench-key', '\\x00', 'bench') RETURNING id`,
      [user],
    )
  ).rows[0].id;
  const cat = (
    await c.query<{ id: number }>(`INSERT INTO "Category" (slug, name, "updatedAt") VALUES ('bench', '{"en":"Bench"}', now()) RETURNING id`)
  ).rows[0].id;
  const prod = (
    await c.query<{ id: number }>(
      `INSERT INTO "Product" (slug, "categoryId", title, description, content, "priceCents", "originalPriceCents", "updatedAt")
    VALUES ('bench', $1, '{"en":"Bench"}', '{}', '{}', 100, 100, now()) RETURNING id`,
      [cat],
    )
  ).rows[0].id;
  const sku = (
    await c.query<{ id: number }>(
      `INSERT INTO "Sku" ("productId", "skuCode", "priceCents", "updatedAt") VALUES ($1, 'BENCH', 100, now()) RETURNING id`,
      [prod],
    )
  ).rows[0].id;
  // 64 bytes of ciphertext-like data per key (core sha256, no extension needed).
  await c.query(
    `INSERT INTO "CardKey" ("skuId", ciphertext, fingerprint)
    SELECT $1, sha256(('k' || g)::bytea) || sha256(('c' || g)::bytea), encode(sha256(g::text::bytea), 'hex') FROM generate_series(1, $2) g`,
    [sku, CARD_KEYS],
  );
  await c.query(
    `INSERT INTO "Order" ("orderNo", "credentialId", "userId", profile, "downstreamOrderNo", "requestDigest", status, "amountCents", "updatedAt", "completedAt")
    SELECT 'B' || g, $1, $2, 'U', 'DN' || g, 'digest', 'delivered', 100, now(), now() FROM generate_series(1, $3) g`,
    [cred, user, ORDERS],
  );
  await c.query(
    `INSERT INTO "OrderItem" ("orderId", "productId", "skuId", title, quantity, "unitPriceCents", "totalPriceCents")
    SELECT id, $1, $2, '{"en":"Bench"}', 1, 100, 100 FROM "Order"`,
    [prod, sku],
  );
  await c.query(`INSERT INTO "Fulfillment" ("orderId", source, "deliveryFormat") SELECT id, 'auto', 'text' FROM "Order"`);
  await c.query(
    `INSERT INTO "PointsLedger" ("userId", "deltaCents", "balanceAfterCents", reason, "orderId")
    SELECT $1, -100, 1000000000 - 100 * row_number() OVER (ORDER BY id), 'order ' || "orderNo", id FROM "Order"`,
    [user],
  );
  await c.query(`UPDATE "CardKey" k SET status = 'delivered', "orderId" = o.id, "deliveredAt" = now()
    FROM "Order" o WHERE k.id = o.id`);
}
