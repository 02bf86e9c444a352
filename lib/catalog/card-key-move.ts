import type pg from "pg";

// The SQL that moves staged card keys into "CardKey" (decision 0020), run on
// the import transaction's own connection while no COPY is open on it. Keys
// of one chunk move in one INSERT … SELECT, so the statement-level triggers
// on "CardKey" fire once per chunk as for any insert; the unique (skuId,
// fingerprint) index skips keys the SKU already holds and repeats, also
// across chunks. Each SKU's CardKeyBatch is made (keyCount 0) before its
// first keys are copied, so every staged row already carries its sku_id and
// batch_id: the move is a scan of the stage and nothing else, a plan that
// cannot go wrong whatever the statistics of the temporary tables or of
// "CardKeyBatch" say (a join planned on missing or stale statistics once
// stalled an import for minutes). The batches get their counts at the end.

export interface BatchOptions { source: string; adminUserId: number | null }

/** Stage tables of the transaction (dropped at its end). */
export const STAGE_TABLES = `
  CREATE TEMP TABLE card_key_stage (sku_id int, batch_id int, sku_code text, fingerprint text NOT NULL, ciphertext bytea NOT NULL) ON COMMIT DROP;
  CREATE TEMP TABLE card_key_later (sku_code text NOT NULL, fingerprint text NOT NULL, ciphertext bytea NOT NULL) ON COMMIT DROP`;

/** Makes a batch (keyCount 0) for each SKU; returns sku id → batch id. */
export async function makeBatches(conn: pg.PoolClient, batch: BatchOptions, skuIds: number[]): Promise<Map<number, number>> {
  const { rows } = await conn.query<{ id: number; skuId: number }>(`
    INSERT INTO "CardKeyBatch" ("skuId", source, "keyCount", "adminUserId")
    SELECT s, $2, 0, $3 FROM unnest($1::int[]) AS s ORDER BY s
    RETURNING id, "skuId"`, [skuIds, batch.source, batch.adminUserId]);
  return new Map(rows.map((r) => [r.skuId, r.id]));
}

/**
 * Moves the chunk in card_key_stage: keys of SKUs that did not exist when the
 * import began (no sku_id) are set aside for `moveLater`, the others go into
 * "CardKey" now. Empties the stage; returns the keys added per batch id.
 */
export async function moveChunk(conn: pg.PoolClient, { now, later }: { now: boolean; later: boolean }): Promise<{ batch_id: number; n: number }[]> {
  if (later) await conn.query("INSERT INTO card_key_later SELECT sku_code, fingerprint, ciphertext FROM card_key_stage WHERE sku_id IS NULL");
  // No INSERT of no rows: it would still fire the statement triggers.
  if (!now) {
    await conn.query("TRUNCATE card_key_stage");
    return [];
  }
  // Two statements, one round trip (the simple protocol: no parameters).
  const [moved] = (await conn.query(`
    WITH moved AS (
      INSERT INTO "CardKey" ("skuId", fingerprint, ciphertext, "batchId")
      SELECT sku_id, fingerprint, ciphertext, batch_id FROM card_key_stage WHERE sku_id IS NOT NULL
      ON CONFLICT ("skuId", fingerprint) DO NOTHING
      RETURNING "batchId"
    )
    SELECT "batchId" AS batch_id, count(*)::int AS n FROM moved GROUP BY "batchId";
    TRUNCATE card_key_stage`)) as unknown as pg.QueryResult<{ batch_id: number; n: number }>[];
  return moved.rows;
}

/**
 * Moves the keys set aside by moveChunk, of the SKUs `codes`: they exist by
 * now (the catalogue rows were written). Returns the batches made and the
 * keys added per batch id.
 */
export async function moveLater(conn: pg.PoolClient, batch: BatchOptions, codes: string[]) {
  const { rows: skus } = await conn.query<{ id: number; skuCode: string }>(`SELECT id, "skuCode" FROM "Sku" WHERE "skuCode" = ANY($1::text[])`, [codes]);
  const batches = await makeBatches(conn, batch, skus.map((s) => s.id));
  await hashJoined(conn, `
    INSERT INTO card_key_stage (sku_id, batch_id, fingerprint, ciphertext)
    SELECT v.sku_id, v.batch_id, l.fingerprint, l.ciphertext
    FROM card_key_later l JOIN unnest($1::text[], $2::int[], $3::int[]) AS v(code, sku_id, batch_id) ON v.code = l.sku_code`,
  [skus.map((s) => s.skuCode), skus.map((s) => s.id), skus.map((s) => batches.get(s.id))]);
  const moved = skus.length ? await moveChunk(conn, { now: true, later: false }) : [];
  await conn.query("TRUNCATE card_key_later");
  return { batches, moved };
}

/**
 * Gives each batch its count of added keys and deletes the batches that got
 * none (every key a duplicate). `added`: batch id → keys added.
 */
export async function settleBatches(conn: pg.PoolClient, added: Map<number, number>): Promise<void> {
  const counted = [...added].filter(([, n]) => n > 0);
  const empty = [...added].filter(([, n]) => n === 0).map(([id]) => id);
  if (counted.length) {
    await hashJoined(conn, `UPDATE "CardKeyBatch" c SET "keyCount" = v.n FROM unnest($1::int[], $2::int[]) AS v(id, n) WHERE c.id = v.id`,
      [counted.map(([id]) => id), counted.map(([, n]) => n)]);
  }
  if (empty.length) await conn.query(`DELETE FROM "CardKeyBatch" WHERE id = ANY($1::int[])`, [empty]);
}

/**
 * Runs a statement that joins a table with an array, with nested loops
 * turned off: a table whose statistics say it is empty (or a temporary table,
 * which has none) must not become the outer side of a nested loop that scans
 * the other side once per row. A hash or merge join is linear whatever the
 * estimates; these statements run once per import.
 */
async function hashJoined(conn: pg.PoolClient, sql: string, params: unknown[]): Promise<void> {
  // No finally: after an error the transaction is aborted and rolls back, SET LOCAL with it.
  await conn.query("SET LOCAL enable_nestloop = off");
  await conn.query(sql, params);
  await conn.query("RESET enable_nestloop");
}
