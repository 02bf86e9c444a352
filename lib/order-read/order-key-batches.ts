import { decryptText } from "../crypto/secret-box";
import { onPool } from "../db/sql-rows";

/** Keys read and opened at a time: a few hundred KB of text, one round trip each. */
export const KEY_BATCH = 4000;

const BATCH_SQL = `SELECT "id", "ciphertext" FROM "CardKey" WHERE "orderId" = $1 AND "id" > $2 ORDER BY "id" LIMIT ${KEY_BATCH}`;

/**
 * Issue 40.3 (decision 0095): the card keys an `auto` order took, in id order
 * (as deliveredLines gives them), decrypted a batch at a time: keyset pages on
 * the index ("orderId", "id"), each its own statement on the pool, so no more
 * than one batch is in memory and no connection is held while the client reads.
 * A delivered order's keys never change, so the pages read one consistent list.
 */
export async function* orderKeyBatches(orderId: number): AsyncGenerator<string[]> {
  let after = "0";
  for (;;) {
    const rows = await onPool(BATCH_SQL, [orderId, after], "order_key_batch");
    if (rows.length > 0) yield rows.map((r) => decryptText(r.ciphertext as Uint8Array));
    if (rows.length < KEY_BATCH) return;
    after = String(rows.at(-1)!.id);
  }
}
