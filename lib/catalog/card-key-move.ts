import type pg from "pg";
import { setReplicationRoleIfAllowed } from "../db/replication-role";

// The SQL that moves staged card keys into "CardKey" (decision 0020), run on
// the import transaction's own connection while no COPY is open on it. Keys
// of one chunk move in one INSERT … SELECT, so the statement-level triggers
// on "CardKey" fire once per chunk as for any insert; the unique (skuId,
// fingerprint) index skips keys the SKU already holds and repeats, also
// across chunks.
//
// Batches: each SKU of the import has a slot (1, 2, …) that its staged rows
// carry; `batchIds[slot - 1]` is its CardKeyBatch, or 0 while it has none.
// A batch is made (keyCount 0) for a SKU of the chunk once one of its keys
// is not held yet, and gets its count at the end. Never a batch that stays
// empty: deleting one runs the foreign key's ON DELETE SET NULL, a scan of
// all of "CardKey" per batch (no index on "batchId"): a re-import of 20,000
// SKUs' held keys ran for over ten minutes. No plan here depends on
// statistics (temporary tables have none): the row's batch is an array
// subscript, the probe a sub-select on the unique index, never a join.

export interface BatchOptions {
  source: string;
  adminUserId: number | null;
}

/** Stage tables of the transaction (dropped at its end). */
export const STAGE_TABLES = `
  CREATE TEMP TABLE card_key_stage (sku_id int, slot int, lead boolean, sku_code text, fingerprint text NOT NULL, ciphertext bytea NOT NULL) ON COMMIT DROP;
  CREATE TEMP TABLE card_key_later (sku_code text NOT NULL, fingerprint text NOT NULL, ciphertext bytea NOT NULL) ON COMMIT DROP`;

/**
 * Makes the batches of the staged SKUs that have none yet and a key they do
 * not hold; returns sku id → batch id. The probe is a scalar sub-select, which
 * PostgreSQL never turns into a join: one unique-index lookup per key probed.
 * `leadsOnly` probes only each SKU's first key in the chunk: enough for new
 * keys (a fifth of the move's time when every key was probed); the SKUs left
 * without a batch then need a second call that probes all their keys.
 */
export async function makeBatches(
  conn: pg.PoolClient,
  batch: BatchOptions,
  batchIds: number[],
  leadsOnly: boolean,
): Promise<Map<number, number>> {
  const { rows } = await conn.query<{ id: number; skuId: number }>(
    `
    INSERT INTO "CardKeyBatch" ("skuId", source, "keyCount", "adminUserId")
    SELECT DISTINCT s.sku_id, $2::text, 0, $3::int FROM card_key_stage s
    WHERE s.sku_id IS NOT NULL AND ($1::int[])[s.slot] = 0 AND (s.lead OR NOT $4::boolean)
      AND (SELECT c.id FROM "CardKey" c WHERE c."skuId" = s.sku_id AND c.fingerprint = s.fingerprint) IS NULL
    ORDER BY s.sku_id
    RETURNING id, "skuId"`,
    [batchIds, batch.source, batch.adminUserId, leadsOnly],
  );
  return new Map(rows.map((r) => [r.skuId, r.id]));
}

/**
 * Moves the chunk in card_key_stage (after makeBatches): keys of SKUs that
 * did not exist when the import began (no sku_id) are set aside for
 * `restageLater`, the others go into "CardKey" now (those of a SKU without a
 * batch are all held). Empties the stage; returns the keys added per batch id.
 */
export async function moveChunk(
  conn: pg.PoolClient,
  batchIds: number[],
  { now, later, skipRowChecks }: { now: boolean; later: boolean; skipRowChecks: boolean },
) {
  if (later)
    await conn.query("INSERT INTO card_key_later SELECT sku_code, fingerprint, ciphertext FROM card_key_stage WHERE sku_id IS NULL");
  let moved: { batch_id: number; n: number }[] = [];
  // No INSERT of no rows: it would still fire the statement triggers.
  if (now && batchIds.some((id) => id > 0)) {
    if (skipRowChecks) await conn.query("SET LOCAL session_replication_role = replica");
    ({ rows: moved } = await conn.query<{ batch_id: number; n: number }>(
      `
      WITH moved AS (
        INSERT INTO "CardKey" ("skuId", fingerprint, ciphertext, "batchId")
        SELECT sku_id, fingerprint, ciphertext, ($1::int[])[slot] FROM card_key_stage
        WHERE sku_id IS NOT NULL AND ($1::int[])[slot] > 0
        ON CONFLICT ("skuId", fingerprint) DO NOTHING
        RETURNING "batchId"
      )
      SELECT "batchId" AS batch_id, count(*)::int AS n FROM moved GROUP BY "batchId"`,
      [batchIds],
    ));
    if (skipRowChecks) await conn.query("SET LOCAL session_replication_role = origin");
  }
  await conn.query("TRUNCATE card_key_stage");
  return moved;
}

// Decision 0024: PostgreSQL checks each inserted key's two foreign keys
// ("skuId" → "Sku", "batchId" → "CardKeyBatch") with a query of its own per
// row: over half of a move's time. When the transaction may set
// session_replication_role, the move runs with those row checks off, because
// what they check already holds for the whole chunk: a key moves only with
// the batch makeBatches made in this transaction for the key's own SKU. That
// batch exists and no other transaction can delete it, and inserting it
// checked the SKU's foreign key, which locked the SKU row FOR KEY SHARE until
// commit (a concurrent delete waits for us, then fails on the keys it would
// orphan). Only foreign-key triggers are skipped: the "CardKey" triggers (the
// journal, KeyStock, OrderKeyRange) are enabled ALWAYS (decisions 0024, 0103).

/** Whether this transaction may set session_replication_role (decision 0024). */
export const maySkipRowChecks = (conn: pg.PoolClient): Promise<boolean> => setReplicationRoleIfAllowed(conn, "origin");

/**
 * Stages again the keys set aside by moveChunk, of the SKUs `codes` (given
 * slots `firstSlot`, `firstSlot + 1`, …): they exist by now (the catalogue
 * rows were written). Returns their sku ids, in the order of `codes`.
 */
export async function restageLater(conn: pg.PoolClient, codes: string[], firstSlot: number): Promise<number[]> {
  const { rows } = await conn.query<{ id: number; skuCode: string }>(`SELECT id, "skuCode" FROM "Sku" WHERE "skuCode" = ANY($1::text[])`, [
    codes,
  ]);
  const ids = new Map(rows.map((r) => [r.skuCode, r.id]));
  const skuIds = codes.map((code) => ids.get(code) ?? 0);
  await hashJoined(
    conn,
    `
    INSERT INTO card_key_stage (sku_id, slot, lead, fingerprint, ciphertext)
    SELECT v.sku_id, (v.ord + $3::int - 1)::int, false, l.fingerprint, l.ciphertext
    FROM card_key_later l JOIN unnest($1::text[], $2::int[]) WITH ORDINALITY AS v(code, sku_id, ord) ON v.code = l.sku_code
    WHERE v.sku_id > 0`,
    [codes, skuIds, firstSlot],
  );
  await conn.query("TRUNCATE card_key_later");
  return skuIds;
}

/**
 * Gives each batch its count of added keys and deletes the batches that got
 * none (only when another import added the same keys at the same time).
 */
export async function settleBatches(conn: pg.PoolClient, added: Map<number, number>): Promise<void> {
  const counted = [...added].filter(([, n]) => n > 0);
  const empty = [...added].filter(([, n]) => n === 0).map(([id]) => id);
  if (counted.length) {
    await hashJoined(conn, `UPDATE "CardKeyBatch" c SET "keyCount" = v.n FROM unnest($1::int[], $2::int[]) AS v(id, n) WHERE c.id = v.id`, [
      counted.map(([id]) => id),
      counted.map(([, n]) => n),
    ]);
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
