import { SYSTEM_ACTOR } from "../audit/actor";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createBackup } from "../backup/create-backup";
import { restoreBackup } from "../backup/restore-backup";
import { maySkipRowChecks } from "../catalog/card-key-move";
import { deliverOrder } from "../fulfillment/deliver-order";
import { startWorker } from "../worker/start-worker";
import { createOrder } from "../orders/create-order";
import { seedOnStart } from "../seed/seed-on-start";
import { closeRateLimitPool, consumeRateLimit } from "../supplier-api/rate-limit";
import { startCallbackReceiver, waitFor } from "../testing/callback-receiver";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { onDatabase } from "../testing/test-database";
import { db } from "./client";
import { connectDatabase } from "./connect";
import { connectOrStartEmbedded, withDatabase } from "./embedded";
import { applyMigrations } from "./migrate";

// Issue 22 item 11: the application does not need a superuser. A production
// install on an external PostgreSQL runs with a role that owns only its
// database (README "Production"), and the embedded server runs the app as
// such a role too, keeping its superuser for administration (decision 0035).

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const ROLE_FACTS = `SELECT r.rolsuper, r.rolcreatedb, r.rolcreaterole, r.rolreplication, r.rolbypassrls,
  pg_get_userbyid(d.datdba) = current_user AS owns_database
  FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`;
const OWNER_ONLY = {
  rolsuper: false,
  rolcreatedb: false,
  rolcreaterole: false,
  rolreplication: false,
  rolbypassrls: false,
  owns_database: true,
};

describe("issue 22.11: a role that owns only its database", () => {
  const suffix = crypto.randomBytes(4).toString("hex");
  const role = `cardkey_owner_${suffix}`;
  const password = crypto.randomBytes(12).toString("hex");
  const serverUrl = inject("testServerUrl");
  const roleUrl = (database: string) => {
    const u = new URL(withDatabase(serverUrl, database));
    u.username = role;
    u.password = password;
    return u.toString();
  };
  const databases = [`cardkey_limited_${suffix}`, `cardkey_limited_${suffix}_restored`];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-least-privilege-"));

  afterAll(async () => {
    await closeRateLimitPool();
    await withClient(serverUrl, async (c) => {
      for (const d of databases) await c.query(`DROP DATABASE IF EXISTS "${d}" WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS "${role}"`);
    });
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("issue 22.11: the two lines of the README make a role that migrates, seeds, sells card keys, imports them, runs jobs and backs up", async () => {
    // As README "Production" tells the operator (the second database is the restore's target).
    await withClient(serverUrl, async (c) => {
      await c.query(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}'`);
      for (const d of databases) await c.query(`CREATE DATABASE "${d}" OWNER "${role}"`);
    });
    const url = roleUrl(databases[0]);
    await withClient(url, async (c) => expect((await c.query(ROLE_FACTS)).rows[0]).toEqual(OWNER_ONLY));

    // Prisma's migrations and graphile-worker's schema.
    expect((await applyMigrations(url)).length).toBeGreaterThan(5);

    const receiver = await startCallbackReceiver();
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
    try {
      await onDatabase(url, async () => {
        // The first start's seed: the demo catalogue goes through the card-key import (staging, COPY, the move).
        const seeded = await seedOnStart({ embedded: true });
        expect(seeded.join("\n")).toMatch(/Demo API key/);
        expect(await db().cardKey.count()).toBeGreaterThan(0);
        // Decision 0024's fallback: this role may not skip the row checks, and the import above moved keys with them.
        await withClient(url, async (c) => {
          await c.query("BEGIN");
          expect(await maySkipRowChecks(c as unknown as pg.PoolClient)).toBe(false);
          await c.query("ROLLBACK");
        });

        // A buyer and key, an order delivered from card keys, a manual order whose callback a worker sends.
        const buyer = await makeBuyer({ pointsCents: 10_000n });
        const keys = cardKeysFor("LP", 3);
        const auto = await makeProduct({ priceCents: 100n, cardKeys: keys });
        const credential = { id: buyer.id, userId: buyer.user.id };
        const { order } = await createOrder({
          credential,
          profile: "P",
          input: { downstreamOrderNo: `LP-${suffix}-1`, skuId: auto.sku.id, quantity: 2 },
        });
        expect(order.status).toBe("delivered");
        expect(order.fulfillment?.lines).toEqual(keys.slice(0, 2));

        const manual = await makeProduct({ fulfillmentType: "manual", priceCents: 100n, stockQuantity: null });
        const { order: m } = await createOrder({
          credential,
          profile: "U",
          input: { downstreamOrderNo: `LP-${suffix}-2`, skuId: manual.sku.id, quantity: 1, callbackUrl: `${receiver.origin}/cb` },
        });
        await deliverOrder({ orderNo: m.orderNo, payloadText: "MANUAL-1", actor: SYSTEM_ACTOR });
        const worker = await startWorker({ connectionString: url, concurrency: 1, pollIntervalMs: 50 });
        try {
          await waitFor(async () => (await db().callback.findFirstOrThrow({ where: { orderId: m.id } })).status === "delivered");
        } finally {
          await worker.stop();
        }

        // The rate-limit counters make their own schema on first use.
        await consumeRateLimit("key", `lp-${suffix}`, 10);
      });
    } finally {
      delete process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS;
      await receiver.close();
    }

    // A backup, and its restore into the other database the role owns.
    const archive = path.join(scratch, "site.tar.gz");
    await createBackup({ out: archive, url });
    await restoreBackup({ in: archive, url: roleUrl(databases[1]), actor: SYSTEM_ACTOR });
    expect(await onDatabase(roleUrl(databases[1]), () => db().order.count())).toBe(2);
    // --force over a database that is not empty drops and recreates its schemas: the owner may.
    await restoreBackup({ in: archive, url: roleUrl(databases[1]), force: true, actor: SYSTEM_ACTOR });
    expect(await onDatabase(roleUrl(databases[1]), () => db().order.count())).toBe(2);
  }, 180_000);
});

describe("issue 22.11: the embedded database", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-embedded-role-"));
  fs.chmodSync(dir, 0o755); // as root the server runs as user postgres
  let stop: (() => Promise<void>) | undefined;
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await stop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("issue 22.11: the app runs as a role that owns only its database, also on a DATA_DIR whose tables the superuser made", async () => {
    // A DATA_DIR from before: the app database made and migrated by the superuser.
    const server = await connectOrStartEmbedded(dir);
    stop = server.stop;
    await withClient(server.serverUrl, (c) => c.query("CREATE DATABASE cardkey"));
    await applyMigrations(withDatabase(server.serverUrl, "cardkey"));
    await withClient(withDatabase(server.serverUrl, "cardkey"), (c) =>
      c.query(`INSERT INTO "Category" (slug, name, "updatedAt") VALUES ('old', '{"en":"Old"}', now())`),
    );

    process.env.DATA_DIR = dir;
    for (let start = 0; start < 2; start++) {
      delete process.env.DATABASE_URL; // connectDatabase sets it
      const conn = await connectDatabase();
      expect(conn.embedded).toBe(true);
      await withClient(conn.url, async (c) => {
        expect((await c.query(ROLE_FACTS)).rows[0]).toEqual(OWNER_ONLY);
        // It owns what the superuser made: it can change the schema, as the next migration will.
        await c.query(`ALTER TABLE "Category" ADD COLUMN probe int; ALTER TABLE "Category" DROP COLUMN probe`);
        await c.query("CREATE TABLE graphile_worker.probe (id int); DROP TABLE graphile_worker.probe");
        expect((await c.query(`SELECT slug FROM "Category"`)).rows).toEqual([{ slug: "old" }]);
        const foreign = await c.query(`SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname IN ('public', 'graphile_worker') AND c.relowner <> current_user::regrole`);
        expect(foreign.rows).toEqual([]);
        // Decision 0035: granted session_replication_role, so imports keep decision 0024's fast move.
        await c.query("BEGIN");
        expect(await maySkipRowChecks(c as unknown as pg.PoolClient)).toBe(true);
        await c.query("ROLLBACK");
      });
      expect(await applyMigrations(conn.url)).toEqual([]);
      await conn.stop?.();
    }
  }, 180_000);
});
