import { encryptText, fingerprint } from "../crypto/secret-box";
import type { Tx } from "../db/tx";

/**
 * Appends card keys to a SKU's stock, encrypted, skipping any the SKU already
 * has (same keyed fingerprint) or that repeat within `keys`. Returns how many
 * were added. Validation against the delivery format is the caller's job.
 */
export async function addCardKeys(tx: Tx, skuId: number, keys: string[], batchId?: number): Promise<number> {
  const seen = new Set<string>();
  const rows = [];
  for (const key of keys) {
    const fp = fingerprint(key);
    if (seen.has(fp)) continue;
    seen.add(fp);
    rows.push({ skuId, fingerprint: fp, ciphertext: encryptText(key), batchId });
  }
  if (!rows.length) return 0;
  const { count } = await tx.cardKey.createMany({ data: rows, skipDuplicates: true });
  return count;
}
