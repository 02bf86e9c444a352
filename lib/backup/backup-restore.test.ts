import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { runCli } from "../testing/run-cli";
import { db } from "../db/client";
import { withDatabase } from "../db/embedded";
import { saveUpload } from "../catalog/save-upload";
import { createOrder } from "../orders/create-order";
import { getOrder } from "../orders/get-order";
import { reconcilePoints } from "../points/reconcile-points";
import { startAppServer } from "../testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { onDatabase, useTestDatabase } from "../testing/test-database";
import { signedRawRequest } from "../testing/test-client";
import { keyStockDrift } from "../testing/key-stock-drift";

// Issue 10 item 3: `backup`, `backup:verify` and `restore` through the real CLI,
// on real PostgreSQL, while orders are being written.

let sourceUrl: string;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-backup-test-"));
fs.chmodSync(scratch, 0o755); // as root the embedded PostgreSQL (user postgres) must enter it
const archive = path.join(scratch, "site.backup");
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let acknowledgedBefore: { id: number; orderNo: string; lines: string[] }[] = [];
let backupJson: { tables: number; rows: number };

async function emptyDatabase(): Promise<string> {
  const serverUrl = inject("testServerUrl");
  const name = `restore_${Date.now()}_${Math.random().toString(16).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return withDatabase(serverUrl, name);
}

beforeAll(async () => {
  sourceUrl = await useTestDatabase();
  buyer = await makeBuyer({ pointsCents: 10_000_000n });
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("issue 10.3: backup while orders are written, restore elsewhere", () => {
  it("every order acknowledged before the backup started is in the archive, and its ledger reconciles", { timeout: 240_000 }, async () => {
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("BAK", 3000) });
    const credential = { id: buyer.id, userId: buyer.user.id };
    // Issue 27.1: uploaded pictures live in the database, so the archive carries them.
    const picture = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`backup-${Date.now()}`)]);
    const picturePath = await saveUpload(picture);
    const acked: { id: number; orderNo: string; lines: string[] }[] = [];
    let stop = false;
    let seq = 0;
    const writer = async (w: number) => {
      for (let i = 0; i < 2000 && !stop; i++) {
        const { order } = await createOrder({
          credential,
          profile: "U",
          input: { downstreamOrderNo: `BAK-${w}-${++seq}`, skuId: sku.id, quantity: 1 },
        });
        acked.push({ id: order.id, orderNo: order.orderNo, lines: order.fulfillment?.lines ?? [] });
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acked.length < 40) await new Promise((r) => setTimeout(r, 20));
    acknowledgedBefore = acked.slice();
    const res = await runCli<typeof backupJson>(["backup", "--out", archive], { DATABASE_URL: sourceUrl });
    const ackedDuring = acked.length - acknowledgedBefore.length;
    stop = true;
    await Promise.all(writers);
    expect(res.code, res.stderr).toBe(0);
    backupJson = res.json;
    expect(backupJson).toMatchObject({ file: archive, bytes: fs.statSync(archive).size });
    expect(backupJson.tables).toBeGreaterThan(10);
    expect(ackedDuring, "orders kept being written while the backup ran").toBeGreaterThan(0);

    const verify = await runCli(["backup:verify", "--in", archive], {});
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.json).toMatchObject({ ok: true, tables: backupJson.tables, rows: backupJson.rows, migrationsPendingAfterRestore: 0 });

    const target = await emptyDatabase();
    const restored = await runCli(["restore", "--in", archive], { DATABASE_URL: target });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.json).toMatchObject({ tables: backupJson.tables, rows: backupJson.rows });

    await onDatabase(target, async () => {
      for (const o of acknowledgedBefore) {
        const order = await getOrder({ credentialId: buyer.id, orderId: o.id });
        expect(order.orderNo).toBe(o.orderNo);
        // Card keys decrypt with the same SECRET_KEY.
        expect(order.fulfillment?.lines).toEqual(o.lines);
      }
      expect((await reconcilePoints()).ok).toBe(true);
      // Sequences moved past the restored ids: a new order gets a new id.
      const maxId = (await db().order.aggregate({ _max: { id: true } }))._max.id!;
      const { order } = await createOrder({
        credential,
        profile: "U",
        input: { downstreamOrderNo: `AFTER-RESTORE-${Date.now()}`, skuId: sku.id, quantity: 1 },
      });
      expect(order.id).toBeGreaterThan(maxId);
      // Triggers were disabled for the load only: each is enabled again as its migration left it (decision 0024: ALWAYS).
      const triggers = await db().$queryRaw<{ name: string; state: string }[]>`
        SELECT tgname AS name, tgenabled::text AS state FROM pg_trigger WHERE tgrelid = '"CardKey"'::regclass AND NOT tgisinternal ORDER BY tgname`;
      expect(triggers).toEqual(["deleted", "inserted", "updated"].map((verb) => ({ name: `CardKey_${verb}`, state: "A" })));
      // The keys' derived tables came back with them (decision 0103): the stock is the available keys, each order's runs hold its keys.
      expect(await keyStockDrift()).toEqual({ stock: 0n, uncovered: 0n });
    });

    // The restored site serves the same API key, catalogue and orders over HTTP.
    const server = await startAppServer(target);
    try {
      const ping = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: "/v1/upstream/ping" });
      expect(ping.status).toBe(200);
      const got = await signedRawRequest(server.baseUrl, buyer, { method: "GET", path: `/v1/upstream/orders/${acknowledgedBefore[0].id}` });
      expect(got.status).toBe(200);
      expect(got.text).toContain(acknowledgedBefore[0].orderNo);
      const pic = await fetch(server.baseUrl + picturePath);
      expect(pic.status, "issue 27.1: the restored site serves the uploaded picture").toBe(200);
      expect(Buffer.from(await pic.arrayBuffer()).equals(picture)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it(
    "restores into a fresh DATA_DIR on the embedded database; a second restore there is refused without --force",
    { timeout: 240_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(scratch, "data-"));
      fs.chmodSync(dataDir, 0o755);
      const env = { DATABASE_URL: undefined, DATA_DIR: dataDir };
      const first = await runCli<{ rows: number }>(["restore", "--in", archive], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.json.rows).toBe(backupJson.rows);
      const again = await runCli(["restore", "--in", archive], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/not empty.*--force/);
      const forced = await runCli<{ rows: number }>(["restore", "--in", archive, "--force"], env);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.json.rows).toBe(backupJson.rows);
      const count = await runCli<{ rows: number }>(["backup", "--out", path.join(scratch, "again.backup")], env);
      expect(count.code, count.stderr).toBe(0);
      expect(count.json.rows).toBe(backupJson.rows + 1); // and the forced restore's own audit row (issue 22.10)
    },
  );
});

describe("issue 10.3: refusals", () => {
  it(
    "a non-empty target without --force, another SECRET_KEY, a damaged archive, a file that is no archive",
    { timeout: 240_000 },
    async () => {
      const intoSource = await runCli(["restore", "--in", archive], { DATABASE_URL: sourceUrl });
      expect(intoSource.code).toBe(1);
      expect(intoSource.stderr).toMatch(/not empty/);

      const wrongKey = await runCli(["restore", "--in", archive], {
        DATABASE_URL: await emptyDatabase(),
        SECRET_KEY: "another-secret-key-not-for-production-00000000000",
      });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toMatch(/not made with this SECRET_KEY/);

      const damaged = path.join(scratch, "damaged.backup");
      const bytes = fs.readFileSync(archive);
      bytes[Math.floor(bytes.length / 2)] ^= 0xff;
      fs.writeFileSync(damaged, bytes);
      const v = await runCli(["backup:verify", "--in", damaged], {});
      expect(v.code).toBe(1);
      expect(v.stderr).toMatch(/damaged|checksum/);

      const notArchive = path.join(scratch, "not.backup");
      fs.writeFileSync(notArchive, "hello");
      expect((await runCli(["backup:verify", "--in", notArchive], {})).code).toBe(1);
      expect((await runCli(["backup:verify"], {})).code).toBe(2);
    },
  );

  it("an archive from a newer schema is refused by verify and restore", { timeout: 240_000 }, async () => {
    const future = await useTestDatabase();
    await db().$executeRaw`INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
      VALUES (gen_random_uuid()::text, 'x', '29991231000000_from_the_future', now(), now(), 1)`;
    const file = path.join(scratch, "future.backup");
    expect((await runCli(["backup", "--out", file], { DATABASE_URL: future })).code).toBe(0);
    const v = await runCli(["backup:verify", "--in", file], {});
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/newer schema/);
    const r = await runCli(["restore", "--in", file], { DATABASE_URL: await emptyDatabase() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/newer schema/);
  });
});
