import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { decryptText, fingerprint } from "../crypto/secret-box";
import { db } from "../db/client";
import { cardKeysFor, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { env } from "../config/env";
import { maySkipRowChecks } from "./card-key-move";
import { withCardKeyStage } from "./card-key-transaction";
import { stampCatalog } from "./stamp-catalog";

// Issue 13.3, decision 0020: keys move into "CardKey" in chunks while more
// are staged, in ONE transaction. Across chunks they stay de-duplicated
// (within the import and against held keys), each SKU gets one batch counting
// what it added (none when every key was held), keys of a SKU made during the
// import move at the end, the "CardKey" triggers count every chunk, and a
// failure leaves nothing.

beforeAll(async () => {
  await useTestDatabase();
}, 60_000);

const availableOf = async (skuId: number) =>
  (await db().$queryRaw<{ n: number }[]>`SELECT "availableKeys" AS n FROM "SkuStamp" WHERE "skuId" = ${skuId}`)[0]?.n;

describe("card-key stage in chunks (issue 13.3, decision 0020)", () => {
  it("de-duplicates across chunks and against held keys, one batch per SKU with its count, triggers see every chunk", async () => {
    const a = await makeProduct({ cardKeys: ["held-a"] });
    const b = await makeProduct({ cardKeys: ["held-b1", "held-b2"] });
    await stampCatalog();
    const batchesOfB = await db().cardKeyBatch.count({ where: { skuId: b.sku.id } });
    const keysA = ["a1", "a2", "a3", "a1", "held-a", "a4", "a2", "a5"];
    const { added, batches } = await withCardKeyStage(
      async (_tx, stage) => {
        for (const key of keysA) await stage.add(a.sku.skuCode, key);
        for (const key of ["held-b1", "held-b2", "held-b1"]) await stage.add(b.sku.skuCode, key);
        return stage.moveInto();
      },
      { source: "import", chunkKeys: 3 },
    );

    expect(added).toBe(5);
    expect([...batches.keys()]).toEqual([a.sku.id]);
    const batch = await db().cardKeyBatch.findUniqueOrThrow({
      where: { id: batches.get(a.sku.id)! },
      include: { cardKeys: { orderBy: { id: "asc" } } },
    });
    expect(batch.keyCount).toBe(5);
    // Sealed and fingerprinted as before (the order within one import is the plan's, as before).
    expect(batch.cardKeys.map((k) => decryptText(k.ciphertext)).sort()).toEqual(["a1", "a2", "a3", "a4", "a5"]);
    expect(batch.cardKeys.map((k) => k.fingerprint).sort()).toEqual(["a1", "a2", "a3", "a4", "a5"].map(fingerprint).sort());
    // Every key of b was held: no empty batch is left behind.
    expect(await db().cardKeyBatch.count({ where: { skuId: b.sku.id } })).toBe(batchesOfB);
    await stampCatalog();
    expect(await availableOf(a.sku.id)).toBe(6);
    expect(await availableOf(b.sku.id)).toBe(2);
  });

  it("makes no batch for a SKU whose keys are all held: none is made to be deleted (a delete scans all CardKey)", async () => {
    const a = await makeProduct({ cardKeys: ["h1", "h2", "h3"] });
    const b = await makeProduct({ cardKeys: ["g1"] });
    const lastBatchId = async () => Number((await db().$queryRaw<{ v: bigint }[]>`SELECT last_value AS v FROM "CardKeyBatch_id_seq"`)[0].v);
    const before = await lastBatchId();
    const { added, batches } = await withCardKeyStage(
      async (_tx, stage) => {
        // a: held keys, one of them first in its chunk and the new one later; b: only held keys.
        for (const key of ["h1", "h2", "h3", "h2", "a-new"]) await stage.add(a.sku.skuCode, key);
        for (const key of ["g1", "g1"]) await stage.add(b.sku.skuCode, key);
        return stage.moveInto();
      },
      { source: "import", chunkKeys: 2 },
    );
    expect(added).toBe(1);
    expect([...batches.keys()]).toEqual([a.sku.id]);
    // One batch made in all: the sequence moved once (a made-then-deleted batch would move it too).
    expect(await lastBatchId()).toBe(before + 1);
    expect((await db().cardKeyBatch.findUniqueOrThrow({ where: { id: batches.get(a.sku.id)! } })).keyCount).toBe(1);
  });

  it("moves the keys of a SKU made inside the import once it exists", async () => {
    const a = await makeProduct({ cardKeys: cardKeysFor("x", 1) });
    const code = `LATER-${Date.now()}`;
    const { added, batches } = await withCardKeyStage(
      async (tx, stage) => {
        for (const key of ["n1", "n2", "n1", "n3"]) await stage.add(code, key);
        await stage.add(a.sku.skuCode, "x-new");
        await stage.drain();
        await tx.sku.create({
          data: { productId: a.product.id, skuCode: code, specValues: { name: "later" }, priceCents: 100n, sortOrder: 1 },
        });
        return stage.moveInto();
      },
      { source: "import", chunkKeys: 2 },
    );
    const sku = await db().sku.findUniqueOrThrow({
      where: { skuCode: code },
      include: { cardKeys: { orderBy: { id: "asc" } }, batches: true },
    });
    expect(added).toBe(4);
    expect(sku.cardKeys.map((k) => decryptText(k.ciphertext)).sort()).toEqual(["n1", "n2", "n3"]);
    expect(sku.batches.map((x) => [x.id, x.keyCount])).toEqual([[batches.get(sku.id), 3]]);
  });

  it("issue 40.2: keys of a SKU the import makes are deferred, then move chunk by chunk while read again (decision 0096)", async () => {
    const a = await makeProduct();
    const code = `DEFER-${Date.now()}`;
    const keys = ["d1", "d2", "d1", "d3", "d4"];
    const { movedBeforeEnd, added, deferred } = await withCardKeyStage(
      async (tx, stage) => {
        stage.deferNew = true;
        for (const key of keys) await stage.add(code, key); // the first read: nothing staged for the SKU yet
        await stage.add(a.sku.skuCode, "a-new");
        const stagedFirst = stage.count;
        await stage.drain();
        await tx.sku.create({
          data: { productId: a.product.id, skuCode: code, specValues: { name: "d" }, priceCents: 100n, sortOrder: 1 },
        });
        const deferred = { codes: [...(await stage.takeDeferred())], stagedFirst };
        for (const key of keys) await stage.add(code, key); // the second read
        await stage.drain();
        const movedBeforeEnd = await tx.cardKey.count({ where: { sku: { skuCode: code } } });
        return { movedBeforeEnd, deferred, ...(await stage.moveInto()) };
      },
      { source: "import", chunkKeys: 2 },
    );
    expect(deferred).toEqual({ codes: [code], stagedFirst: 1 });
    expect(movedBeforeEnd).toBe(4); // in "CardKey" before moveInto: moved as the chunks filled
    expect(added).toBe(5);
    const sku = await db().sku.findUniqueOrThrow({ where: { skuCode: code }, include: { cardKeys: true, batches: true } });
    expect(sku.cardKeys.map((k) => decryptText(k.ciphertext)).sort()).toEqual(["d1", "d2", "d3", "d4"]);
    expect(sku.batches.map((x) => x.keyCount)).toEqual([4]);
  });

  it("writes nothing when the transaction fails after chunks have moved", async () => {
    const a = await makeProduct();
    const before = { keys: await db().cardKey.count(), batches: await db().cardKeyBatch.count() };
    await expect(
      withCardKeyStage(
        async (_tx, stage) => {
          for (const key of cardKeysFor("f", 7)) await stage.add(a.sku.skuCode, key);
          await stage.drain();
          throw new Error("later problem");
        },
        { source: "import", chunkKeys: 2 },
      ),
    ).rejects.toThrow("later problem");
    expect({ keys: await db().cardKey.count(), batches: await db().cardKeyBatch.count() }).toEqual(before);
  });

  // Decision 0024: moves skip PostgreSQL's per-row foreign-key checks when the role may.
  it("skips the row checks here (the test database's role may), and only for the move itself", async () => {
    const a = await makeProduct();
    await stampCatalog(); // stamped before: the keys must reach the count through the journal
    const roles = await withCardKeyStage(
      async (tx, stage) => {
        for (const key of cardKeysFor("r", 5)) await stage.add(a.sku.skuCode, key);
        await stage.drain();
        return tx.$queryRaw<{ role: string }[]>`SELECT current_setting('session_replication_role') AS role`;
      },
      { source: "import", chunkKeys: 2 },
    );
    // Back to origin before the import's other writes (products, SKUs), whose foreign keys are checked as always.
    expect(roles[0].role).toBe("origin");
    expect(await db().cardKey.count({ where: { skuId: a.sku.id } })).toBe(5);
    // The journal triggers fire in replica mode too (enabled ALWAYS): the stamp counts the moved keys.
    await stampCatalog();
    expect(await availableOf(a.sku.id)).toBe(5);
  });

  it("fails, writing nothing, when a SKU of the import is deleted after the import read the SKUs", async () => {
    const a = await makeProduct();
    const gone = await db().sku.create({
      data: { productId: a.product.id, skuCode: `GONE-${Date.now()}`, specValues: { name: "gone" }, priceCents: 100n, sortOrder: 1 },
    });
    const before = { keys: await db().cardKey.count(), batches: await db().cardKeyBatch.count() };
    await expect(
      withCardKeyStage(
        async (_tx, stage) => {
          await db().sku.delete({ where: { id: gone.id } }); // another connection, after open() read every SKU id
          for (const key of cardKeysFor("g", 3)) await stage.add(gone.skuCode, key);
          return stage.moveInto();
        },
        { source: "import", chunkKeys: 2 },
      ),
    ).rejects.toThrow(/foreign key/);
    expect({ keys: await db().cardKey.count(), batches: await db().cardKeyBatch.count() }).toEqual(before);
    expect(await db().cardKey.count({ where: { skuId: gone.id } })).toBe(0);
  });

  it("a role that may not set session_replication_role keeps the row checks, and its transaction goes on", async () => {
    const role = `importer_${Date.now()}`;
    await db().$executeRawUnsafe(`CREATE ROLE ${role} LOGIN PASSWORD 'importer'`);
    const url = new URL(env().DATABASE_URL!);
    url.username = role;
    url.password = "importer";
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await client.query("BEGIN");
      expect(await maySkipRowChecks(client as unknown as pg.PoolClient)).toBe(false);
      expect((await client.query<{ one: number }>("SELECT 1 AS one")).rows[0].one).toBe(1);
      await client.query("COMMIT");
      const su = new pg.Client({ connectionString: env().DATABASE_URL });
      await su.connect();
      await su.query("BEGIN");
      expect(await maySkipRowChecks(su as unknown as pg.PoolClient)).toBe(true);
      await su.query("ROLLBACK");
      await su.end();
    } finally {
      await client.end();
      await db().$executeRawUnsafe(`DROP ROLE ${role}`);
    }
  });
});
