import { db } from "../db/client";
import { enqueueJob } from "../jobs/enqueue-job";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { clientFor, loadConnection } from "./connection";
import { UpstreamError } from "./upstream-client";

export interface UpstreamConnectionRow {
  id: number;
  name: string;
  baseUrl: string;
  profile: "U" | "P";
  /** Issue 37.3: "svc" (ours) or "dujiao_next". */
  protocol: "svc" | "dujiao_next";
  apiKey: string;
  maxWaitSeconds: number;
  isEnabled: boolean;
  lastPingAt: string | null;
  lastPingOk: boolean | null;
  /** The balance the upstream reported at the last successful ping ("12.30"). */
  lastBalance: string | null;
  products: number;
}

/** Connections for the administrator (admin UI, `upstream:list`): never the secret. */
export async function listUpstreamConnections(): Promise<UpstreamConnectionRow[]> {
  const rows = await db().upstreamConnection.findMany({ orderBy: { id: "asc" }, include: { _count: { select: { products: true } } } });
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    baseUrl: c.baseUrl,
    profile: c.profile,
    protocol: c.protocol,
    apiKey: c.apiKey,
    maxWaitSeconds: c.maxWaitSeconds,
    isEnabled: c.isEnabled,
    lastPingAt: c.lastPingAt?.toISOString() ?? null,
    lastPingOk: c.lastPingOk,
    lastBalance: c.lastBalance,
    products: c._count.products,
  }));
}

/** Pings one connection now and records the outcome (and the balance when it answered), with its audit row (none for the alert checks' routine pings: nobody changed anything). */
export async function pingUpstreamConnection(
  id: number,
  { actor, audit = true }: { actor: Actor; audit?: boolean },
): Promise<{ ok: boolean; balance: string | null; error: string | null }> {
  const conn = await loadConnection(id);
  let result: { ok: boolean; balance: string | null; error: string | null };
  try {
    result = { ok: true, balance: (await clientFor(conn).ping()).balance, error: null };
  } catch (err) {
    // UpstreamError messages are ours (issue 8.3); anything else is not shown.
    result = { ok: false, balance: null, error: err instanceof UpstreamError ? err.message : "unexpected error" };
  }
  // The request itself runs outside the transaction: no row lock waits on an upstream.
  await db().$transaction(async (tx) => {
    const row = await tx.upstreamConnection.update({
      where: { id },
      data: { lastPingAt: new Date(), lastPingOk: result.ok, ...(result.ok ? { lastBalance: result.balance } : {}) },
      select: { id: true },
    });
    // Issue 25: counted by lib/alerts, which subscribes to this job (issue 34.1: alerts imports upstream, so not called from here).
    await enqueueJob(tx, "alert:upstream-ping", { connectionId: row.id, ...result }, { queueName: `upstream-ping:${row.id}` });
    if (audit)
      await writeAuditLog(tx, {
        actor,
        action: "upstream.ping",
        targetType: "upstream_connection",
        targetId: String(id),
        details: { ok: result.ok },
      });
  });
  return result;
}
