import { decryptText } from "../crypto/secret-box";
import { onPool } from "../db/sql-rows";

/** Keys read and opened at a time: a few hundred KB of text, one round trip each. */
export const KEY_BATCH = 4000;

const RANGES_SQL = `SELECT "fromId", "toId" FROM "OrderKeyRange" WHERE "orderId" = $1 ORDER BY "fromId"`;
// By primary key; "orderId" is the truth, a run only says where to look (decision 0103).
const BATCH_SQL = `SELECT "id", "ciphertext" FROM "CardKey" WHERE "id" = ANY ($2::bigint[]) AND "orderId" = $1 ORDER BY "id"`;

/**
 * Issue 40.3 (decisions 0095, 0103): the card keys an `auto` order took, in
 * id order (as deliveredLines gives them), decrypted a batch at a time. The
 * order's runs of key ids are read once; each batch is the next KEY_BATCH ids
 * of them, read by primary key in a statement of its own on the pool, so no
 * more than one batch is in memory and no connection is held while the
 * client reads. A delivered order's keys never change, so the batches read
 * one consistent list.
 */
export async function* orderKeyBatches(orderId: number): AsyncGenerator<string[]> {
  const runs = await onPool(RANGES_SQL, [orderId], "order_key_runs");
  for (const ids of idBatches(mergedRuns(runs.map((r) => [BigInt(r.fromId as string), BigInt(r.toId as string)])), KEY_BATCH)) {
    const rows = await onPool(BATCH_SQL, [orderId, ids.map(String)], "order_key_batch");
    if (rows.length > 0) yield rows.map((r) => decryptText(r.ciphertext as Uint8Array));
  }
}

/** Runs sorted by their first id, overlapping or adjacent ones joined (a run is only ever added, never split). */
export function mergedRuns(runs: [bigint, bigint][]): [bigint, bigint][] {
  const merged: [bigint, bigint][] = [];
  for (const [from, to] of [...runs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1n) last[1] = to > last[1] ? to : last[1];
    else merged.push([from, to]);
  }
  return merged;
}

/** The ids of the runs, in order, `size` at a time. */
export function* idBatches(runs: [bigint, bigint][], size: number): Generator<bigint[]> {
  let batch: bigint[] = [];
  for (const [from, to] of runs) {
    for (let id = from; id <= to; id++) {
      batch.push(id);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
