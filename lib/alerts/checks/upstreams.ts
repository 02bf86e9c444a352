import { SYSTEM_ACTOR } from "../../audit/actor";
import { env } from "../../config/env";
import { db } from "../../db/client";
import { pingUpstreamConnection } from "../../upstream/list-upstream-connections";

/**
 * Issue 25: pings every enabled upstream connection not pinged for four
 * check intervals (a minute by default), as an administrator's ping does but
 * without an audit row (nobody changed anything); the ping feeds the
 * down/recovered and low-balance alerts (upstream-health.ts).
 */
export async function checkUpstreams(): Promise<number> {
  const every = env().ALERT_CHECK_INTERVAL_SECONDS * 4;
  const due = await db().$queryRaw<{ id: number }[]>`
    SELECT "id" FROM "UpstreamConnection"
    WHERE "isEnabled" AND ("lastPingAt" IS NULL OR "lastPingAt" < now() - make_interval(secs => ${every}::int))
    ORDER BY "id" LIMIT 50`;
  await Promise.all(due.map(({ id }) => pingUpstreamConnection(id, { actor: SYSTEM_ACTOR, audit: false })));
  return due.length;
}
