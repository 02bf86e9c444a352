import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/**
 * Enables or disables an upstream connection (admin UI). A disabled
 * connection takes no new orders (queueUpstreamPurchase refuses its SKUs) and
 * running purchases stop calling it (run-purchase.ts) until it is enabled
 * again or their deadline sends them to review. Audited with the change.
 */
export async function setUpstreamEnabled(input: { connectionId: number; enabled: boolean; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const found = await tx.upstreamConnection.findUnique({ where: { id: input.connectionId }, select: { id: true, isEnabled: true } });
    if (!found) throw appError("not_found", `upstream connection ${input.connectionId} not found`);
    await tx.upstreamConnection.update({ where: { id: found.id }, data: { isEnabled: input.enabled } });
    await writeAuditLog(tx, {
      actor: input.actor,
      action: input.enabled ? "upstream.enable" : "upstream.disable",
      targetType: "upstream_connection",
      targetId: String(found.id),
      details: { previous: found.isEnabled },
    });
    return { id: found.id, isEnabled: input.enabled };
  });
}
