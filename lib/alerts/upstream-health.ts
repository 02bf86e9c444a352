import type { Tx } from "../db/tx";
import { formatAmount, isAmount, parseAmount } from "../protocol/amount";
import { alertThreshold } from "./alert-context";
import { enqueueAlert } from "./enqueue-alert";
import { flipAlertCondition } from "./flip-condition";

/**
 * Issue 25: called in the transaction that records a ping of an upstream
 * connection (the periodic check's, an administrator's). K failures in a
 * row (upstream_down, default 3) alert once; the first success after that
 * alerts the recovery. A balance the ping reports below the connection's own
 * threshold alerts once until it is back above.
 */
export async function recordUpstreamPing(
  tx: Tx,
  conn: { id: number; name: string; alertBalanceCents: bigint | null },
  result: { ok: boolean; balance: string | null; error: string | null },
): Promise<void> {
  const key = `upstream:${conn.id}`;
  if (result.ok) {
    await tx.alertCondition.updateMany({ where: { key }, data: { count: 0 } });
    const seq = await flipAlertCondition(tx, key, false);
    if (seq !== null)
      await enqueueAlert(tx, {
        kind: "upstream_recovered",
        dedupeKey: `upstream_recovered:${conn.id}:${seq}`,
        params: { upstream: conn.name },
      });
    if (conn.alertBalanceCents !== null && result.balance !== null && isAmount(result.balance)) {
      const balance = parseAmount(result.balance);
      const low = balance < conn.alertBalanceCents;
      const bseq = await flipAlertCondition(tx, `upstream-balance:${conn.id}`, low);
      if (bseq !== null && low) {
        await enqueueAlert(tx, {
          kind: "upstream_balance_low",
          dedupeKey: `upstream_balance_low:${conn.id}:${bseq}`,
          params: {
            upstream: conn.name,
            balance: `${formatAmount(balance)} CNY`,
            threshold: `${formatAmount(conn.alertBalanceCents)} CNY`,
          },
        });
      }
    }
    return;
  }
  const [row] = await tx.$queryRaw<{ count: number }[]>`
    INSERT INTO "AlertCondition" ("key", "active", "seq", "count") VALUES (${key}, false, 0, 1)
    ON CONFLICT ("key") DO UPDATE SET "count" = "AlertCondition"."count" + 1
    RETURNING "count"`;
  if (row.count < (await alertThreshold("upstream_down", tx))) return;
  const seq = await flipAlertCondition(tx, key, true);
  if (seq !== null) {
    await enqueueAlert(tx, {
      kind: "upstream_down",
      dedupeKey: `upstream_down:${conn.id}:${seq}`,
      params: { upstream: conn.name, failures: row.count, error: (result.error ?? "no answer").slice(0, 200) },
    });
  }
}
