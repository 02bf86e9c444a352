import type pg from "pg";

// The SQL that moves staged card keys into "CardKey" (decision 0020), run on
// the import transaction's own connection while no COPY is open on it. Keys
// of one chunk move in one INSERT … SELECT, so the statement-level triggers
// on "CardKey" fire once per chunk as for any insert; the unique (skuId,
// fingerprint) index skips keys the SKU already holds and repeats, also
// across chunks. Each SKU's CardKeyBatch is made (keyCount 0) when its first
// keys move, and given its count at the end: no pass over the staged keys
// before the insert.

export interface BatchOptions { source: string; adminUserId: number | null }

/**
 * Stage tables of the transaction (dropped at its end). card_key_stage_batch
 * is indexed both ways: "CardKeyBatch" may have no statistics yet, and a plan
 * that scanned both for each other (a nested loop) took 30 s for 20,000 batches.
 */
export const STAGE_TABLES = `
  CREATE TEMP TABLE card_key_stage (sku_id int, sku_code text, fingerprint text NOT NULL, ciphertext bytea NOT NULL) ON COMMIT DROP;
  CREATE TEMP TABLE card_key_later (sku_code text NOT NULL, fingerprint text NOT NULL, ciphertext bytea NOT NULL) ON COMMIT DROP;
  CREATE TEMP TABLE card_key_stage_batch (batch_id int PRIMARY KEY, sku_id int NOT NULL UNIQUE, added int NOT NULL) ON COMMIT DROP`;

/**
 * Moves the chunk in card_key_stage: keys of SKUs that did not exist when the
 * import began (no sku_id) are set aside for `moveLater`, the others go into
 * "CardKey" now. Empties the stage.
 */
export async function moveChunk(conn: pg.PoolClient, batch: BatchOptions, { now, later }: { now: boolean; later: boolean }): Promise<void> {
  if (later) await conn.query("INSERT INTO card_key_later SELECT sku_code, fingerprint, ciphertext FROM card_key_stage WHERE sku_id IS NULL");
  // No INSERT of no rows: it would still fire the statement triggers.
  if (!now) return void (await conn.query("TRUNCATE card_key_stage"));
  // A temporary table has no statistics until analysed (the first version
  // analysed it too): with none, a move once ran for minutes.
  await conn.query("ANALYZE card_key_stage, card_key_stage_batch");
  await conn.query(`
    WITH made AS (
      INSERT INTO "CardKeyBatch" ("skuId", source, "keyCount", "adminUserId")
      SELECT s.sku_id, $1, 0, $2 FROM (SELECT DISTINCT sku_id FROM card_key_stage WHERE sku_id IS NOT NULL) s
      WHERE NOT EXISTS (SELECT 1 FROM card_key_stage_batch b WHERE b.sku_id = s.sku_id)
      ORDER BY s.sku_id
      RETURNING id, "skuId"
    )
    INSERT INTO card_key_stage_batch (sku_id, batch_id, added) SELECT "skuId", id, 0 FROM made`, [batch.source, batch.adminUserId]);
  await conn.query(`
    WITH moved AS (
      INSERT INTO "CardKey" ("skuId", fingerprint, ciphertext, "batchId")
      SELECT s.sku_id, s.fingerprint, s.ciphertext, b.batch_id
      FROM card_key_stage s JOIN card_key_stage_batch b ON b.sku_id = s.sku_id
      ON CONFLICT ("skuId", fingerprint) DO NOTHING
      RETURNING "batchId"
    )
    UPDATE card_key_stage_batch b SET added = b.added + m.n
    FROM (SELECT "batchId", count(*)::int AS n FROM moved GROUP BY "batchId") m WHERE b.batch_id = m."batchId";
    TRUNCATE card_key_stage`);
}

/** Moves the keys set aside by moveChunk: their SKUs exist by now (the catalogue rows were written). */
export async function moveLater(conn: pg.PoolClient, batch: BatchOptions): Promise<void> {
  const { rowCount } = await conn.query(`
    INSERT INTO card_key_stage (sku_id, fingerprint, ciphertext)
    SELECT k.id, l.fingerprint, l.ciphertext FROM card_key_later l JOIN "Sku" k ON k."skuCode" = l.sku_code`);
  if (rowCount) await moveChunk(conn, batch, { now: true, later: false });
  await conn.query("TRUNCATE card_key_later");
}

/** Gives each batch its count of added keys and drops the batches that got none (every key a duplicate): sku id → batch id, keys added. */
export async function settleBatches(conn: pg.PoolClient): Promise<{ batches: Map<number, number>; added: number }> {
  const { rows } = await conn.query<{ sku_id: number; batch_id: number; added: number }>(`
    WITH counted AS (
      UPDATE "CardKeyBatch" c SET "keyCount" = b.added FROM card_key_stage_batch b WHERE c.id = b.batch_id AND b.added > 0
      RETURNING b.sku_id, b.batch_id, b.added
    ), dropped AS (
      DELETE FROM "CardKeyBatch" c USING card_key_stage_batch b WHERE c.id = b.batch_id AND b.added = 0
    )
    SELECT * FROM counted`);
  await conn.query("TRUNCATE card_key_stage_batch");
  return { batches: new Map(rows.map((r) => [r.sku_id, r.batch_id])), added: rows.reduce((n, r) => n + r.added, 0) };
}
