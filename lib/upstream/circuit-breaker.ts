import { env } from "../config/env";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { log } from "../log";

// Issue 26.2: a circuit breaker per upstream connection, kept in the
// connection's row so that every instance and every worker agrees (an
// in-process breaker such as cockatiel's would let each process find out on
// its own). After UPSTREAM_BREAKER_FAILURES consecutive failures the
// connection is skipped by new hops for UPSTREAM_BREAKER_OPEN_SECONDS; then
// ONE hop probes it (claimProbe); its success closes the breaker, its failure
// opens it again. A hop already made is always resolved, open or not: the
// breaker only decides where new hops go (choose-source.ts).

/** One call's outcome at the connection: an answer we could use, or a refusal, a failed order, a timeout, a 5xx. */
export async function recordCallOutcome(connectionId: number, ok: boolean): Promise<void> {
  const { UPSTREAM_BREAKER_FAILURES: k, UPSTREAM_BREAKER_OPEN_SECONDS: t } = env();
  if (ok) {
    // Written only when there is something to reset: no row lock per healthy call.
    await db().$executeRaw`
      UPDATE "UpstreamConnection" SET "breakerFailures" = 0, "breakerOpenUntil" = NULL, "breakerProbeAt" = NULL
      WHERE "id" = ${connectionId} AND ("breakerFailures" <> 0 OR "breakerOpenUntil" IS NOT NULL)`;
    return;
  }
  const [row] = await db().$queryRaw<{ failures: number }[]>`
    UPDATE "UpstreamConnection" SET
      "breakerFailures" = "breakerFailures" + 1,
      -- Opens at the K-th failure, and again when a probe fails (open, then half-open, fails).
      "breakerOpenUntil" = CASE WHEN "breakerFailures" + 1 >= ${k} AND ("breakerOpenUntil" IS NULL OR "breakerOpenUntil" <= now())
                                THEN now() + make_interval(secs => ${t}::double precision) ELSE "breakerOpenUntil" END,
      "breakerProbeAt" = CASE WHEN "breakerFailures" + 1 >= ${k} AND ("breakerOpenUntil" IS NULL OR "breakerOpenUntil" <= now())
                              THEN NULL ELSE "breakerProbeAt" END
    WHERE "id" = ${connectionId}
    RETURNING "breakerFailures" AS "failures"`;
  if (row?.failures === k)
    log.warn({ component: "upstream", connectionId, failures: row.failures, openSeconds: t }, "upstream circuit breaker opened");
}

/** May a new hop be sent to this connection now: closed, or half-open and this caller won the probe. */
export async function breakerAllows(connectionId: number): Promise<boolean> {
  const [row] = await db().$queryRaw<{ open: boolean | null }[]>`
    SELECT ("breakerOpenUntil" > now()) AS "open" FROM "UpstreamConnection" WHERE "id" = ${connectionId}`;
  if (!row || row.open === null) return true;
  return !row.open && (await claimProbe(db(), connectionId));
}

/**
 * A half-open connection takes ONE probe hop per open period: the first
 * caller to set breakerProbeAt wins. A probe that never answers frees its
 * place after another open period.
 */
async function claimProbe(tx: Tx, connectionId: number): Promise<boolean> {
  const t = env().UPSTREAM_BREAKER_OPEN_SECONDS;
  const n = await tx.$executeRaw`
    UPDATE "UpstreamConnection" SET "breakerProbeAt" = now()
    WHERE "id" = ${connectionId} AND "breakerOpenUntil" <= now()
      AND ("breakerProbeAt" IS NULL OR "breakerProbeAt" < now() - make_interval(secs => ${t}::double precision))`;
  return n === 1;
}
