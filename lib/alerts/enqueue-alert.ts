import type { Tx } from "../db/tx";
import { enqueueJob } from "../jobs/enqueue-job";
import type { AlertKind, AlertParams } from "./event-kinds";

export interface AlertInput {
  kind: AlertKind;
  /**
   * Names the state change, not the moment: two instances (or a crash and a
   * rerun) that see the same change compute the same key, and only the first
   * insert counts. Examples: `order_review:<order id>`, `stock_low:<sku id>:<crossing>`.
   */
  dedupeKey: string;
  /** Order numbers, amounts, names, hosts: never a card key, a form value or a secret. */
  params: AlertParams;
}

/**
 * Issue 25: records an alert in the caller's transaction, so it exists
 * exactly when the state change that caused it commits, and queues its
 * dispatch job with it. A second call with the same dedupe key (another
 * instance, a rerun) adds nothing. Returns the event id, or null when the key
 * was already used. This is the function other services call: one line
 * inside their transaction.
 */
export async function enqueueAlert(tx: Tx, { kind, dedupeKey, params }: AlertInput): Promise<bigint | null> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO "AlertEvent" ("kind", "dedupeKey", "params")
    VALUES (${kind}, ${dedupeKey.slice(0, 300)}, ${JSON.stringify(params)}::jsonb)
    ON CONFLICT ("dedupeKey") DO NOTHING
    RETURNING "id"`;
  if (!rows.length) return null;
  await enqueueJob(tx, "alert:dispatch", { eventId: String(rows[0].id) }, { maxAttempts: 25 });
  return rows[0].id;
}
