import { env } from "../../config/env";
import { db } from "../../db/client";
import { clientFor, loadConnection } from "../../upstream/connection";
import { UpstreamError } from "../../upstream/upstream-client";
import { recordUpstreamPing } from "../upstream-health";

/**
 * Issue 25: pings every enabled upstream connection not pinged for four
 * check intervals (a minute by default), records the answer on the
 * connection like an administrator's ping (without an audit row: nobody
 * changed anything) and feeds it to the down/recovered and low-balance alerts.
 */
export async function checkUpstreams(): Promise<number> {
  const every = env().ALERT_CHECK_INTERVAL_SECONDS * 4;
  const due = await db().$queryRaw<{ id: number }[]>`
    SELECT "id" FROM "UpstreamConnection"
    WHERE "isEnabled" AND ("lastPingAt" IS NULL OR "lastPingAt" < now() - make_interval(secs => ${every}::int))
    ORDER BY "id" LIMIT 50`;
  await Promise.all(due.map(({ id }) => pingForAlerts(id)));
  return due.length;
}

async function pingForAlerts(id: number): Promise<void> {
  const conn = await loadConnection(id);
  let result: { ok: boolean; balance: string | null; error: string | null };
  try {
    result = { ok: true, balance: (await clientFor(conn).ping()).balance, error: null };
  } catch (err) {
    result = { ok: false, balance: null, error: err instanceof UpstreamError ? err.message : "unexpected error" };
  }
  await db().$transaction(async (tx) => {
    const row = await tx.upstreamConnection.update({
      where: { id },
      data: { lastPingAt: new Date(), lastPingOk: result.ok, ...(result.ok ? { lastBalance: result.balance } : {}) },
      select: { id: true, name: true, alertBalanceCents: true },
    });
    await recordUpstreamPing(tx, row, result);
  });
}
