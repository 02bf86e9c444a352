import { SealedBatches } from "../crypto/sealed-batches";
import { onPool } from "../db/sql-rows";

/** Keys read and opened at a time: a few hundred KB of text, one round trip each. */
export const KEY_BATCH = 4000;

const RANGES_SQL = `SELECT "fromId", "toId" FROM "OrderKeyRange" WHERE "orderId" = $1 ORDER BY "fromId"`;
// A batch's keys as one row (their sealed bytes end to end, and each one's
// length): node-postgres then parses one value, not 4,000 rows (0.22 s a
// pass of 100,000 keys, 0.5 s as rows by id). Read by primary-key range;
// "orderId" is the truth, a run only says where to look (decision 0103).
const BATCH_SQL = `SELECT string_agg(k."ciphertext", ''::bytea ORDER BY k."id") AS "sealed", array_agg(length(k."ciphertext") ORDER BY k."id") AS "lengths"
  FROM unnest($2::bigint[], $3::bigint[]) AS r("fromId", "toId") JOIN "CardKey" k ON k."id" BETWEEN r."fromId" AND r."toId"
  WHERE k."orderId" = $1`;

/**
 * Issue 40.3 (decisions 0095, 0103, 0104): the card keys an `auto` order took,
 * in id order (as deliveredLines gives them), as a function that reads them
 * again, a batch at a time, each time it is called. The order's runs of key
 * ids are read once; each batch is the next KEY_BATCH ids of them, read in a
 * statement of its own on the pool, so no more than one batch is in memory
 * and no connection is held while the client reads. A delivered order's keys
 * never change, so every reading is the same list; a later reading opens a
 * batch at a fraction of the first's cost, and only if its bytes are the ones
 * the first reading authenticated (lib/crypto/sealed-batches.ts).
 */
export function orderKeyReader(orderId: number): () => AsyncGenerator<string[]> {
  let runs: Promise<[bigint, bigint][]> | undefined;
  const opened = new SealedBatches();
  return async function* () {
    runs ??= onPool(RANGES_SQL, [orderId], "order_key_runs").then((rows) =>
      mergedRuns(rows.map((r) => [BigInt(r.fromId as string), BigInt(r.toId as string)])),
    );
    let batch = 0;
    for (const ranges of rangeBatches(await runs, KEY_BATCH)) {
      const [row] = await onPool(BATCH_SQL, [orderId, ranges.map((r) => String(r[0])), ranges.map((r) => String(r[1]))], "order_key_batch");
      const lengths = (row?.lengths as number[] | null) ?? [];
      if (lengths.length > 0) yield opened.open(batch, row.sealed as Buffer, lengths);
      batch++;
    }
  };
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

/** The runs cut into batches of at most `size` ids each, in order (a run may be split between two batches). */
export function* rangeBatches(runs: [bigint, bigint][], size: number): Generator<[bigint, bigint][]> {
  let batch: [bigint, bigint][] = [];
  let room = BigInt(size);
  for (const [first, to] of runs) {
    let from = first;
    while (from <= to) {
      const end = to - from + 1n <= room ? to : from + room - 1n;
      batch.push([from, end]);
      room -= end - from + 1n;
      from = end + 1n;
      if (room === 0n) {
        yield batch;
        batch = [];
        room = BigInt(size);
      }
    }
  }
  if (batch.length > 0) yield batch;
}
