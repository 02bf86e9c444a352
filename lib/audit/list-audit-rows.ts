import { db } from "../db/client";

/**
 * Rows `audit:list` prints at most at once: the newest ones (since `--since`).
 * Newest first cannot page forward, so a shipper runs it with `--since` the
 * last `created_at` it shipped, often enough that fewer rows than this pile up.
 */
export const MAX_AUDIT_LIST = 10_000;

/**
 * The audit trail for operators who ship it elsewhere (`npm run cli --
 * audit:list`, issue 22.10): newest first, optionally only rows at or after
 * `since`, in the shape the CLI prints (ids as strings: they are bigints).
 */
export async function listAuditRows({ since, limit }: { since?: Date; limit: number }) {
  const rows = await db().auditLog.findMany({
    where: since ? { createdAt: { gte: since } } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(limit, MAX_AUDIT_LIST),
  });
  return rows.map((r) => ({
    id: r.id.toString(),
    created_at: r.createdAt.toISOString(),
    actor: r.actor,
    admin_user_id: r.adminUserId,
    ip: r.ip,
    action: r.action,
    target_type: r.targetType,
    target_id: r.targetId,
    details: r.details,
  }));
}
