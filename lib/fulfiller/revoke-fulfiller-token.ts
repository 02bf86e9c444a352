import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";

/**
 * Issue 39: a revoked token is refused on its next request, on every
 * instance (the API reads the token row each time). Its leases are dropped
 * in the same transaction, so its orders are at once free for another
 * worker or the console; events not yet sent to its webhook are cancelled.
 */
export async function revokeFulfillerToken(input: { id: number; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const token = await tx.fulfillerToken.findUnique({ where: { id: input.id }, select: { name: true, revokedAt: true } });
    if (!token) throw appError("not_found", `no fulfiller token ${input.id}`);
    if (token.revokedAt) return { id: input.id, name: token.name, revoked_at: token.revokedAt, leases_dropped: 0 };
    const revokedAt = new Date();
    await tx.fulfillerToken.update({ where: { id: input.id }, data: { revokedAt } });
    const { count } = await tx.fulfillerLease.deleteMany({ where: { tokenId: input.id } });
    await tx.fulfillerEvent.updateMany({
      where: { tokenId: input.id, status: "pending" },
      data: { status: "cancelled", nextAttemptAt: null },
    });
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "fulfiller.revoke",
      targetType: "fulfiller",
      targetId: token.name,
      details: { id: input.id, leasesDropped: count },
    });
    return { id: input.id, name: token.name, revoked_at: revokedAt, leases_dropped: count };
  });
}
