import type { Tx } from "../db/tx";
import type { InputJsonValue } from "../generated/prisma/internal/prismaNamespace";

/** Who acted, for the audit log: an admin (with the IP of the request), the CLI or the system. */
export interface AuditActor {
  /** The administrator who acted; absent for the CLI and the system. */
  adminUserId?: number;
  /** "cli", "system" or the admin's e-mail; defaults from adminUserId, else "cli". */
  actor?: string;
  /** The client IP of an admin console request. */
  ip?: string | null;
}

export interface AuditEntry extends AuditActor {
  action: string;
  targetType?: string;
  targetId?: string;
  /** Never secrets, payloads or form values: ids, counts, reasons. */
  details?: InputJsonValue;
}

/**
 * The one writer of AuditLog rows (who, what, when, from where), in the
 * caller's transaction so the record and the action commit together.
 */
export async function writeAuditLog(tx: Tx, entry: AuditEntry): Promise<void> {
  let actor = entry.actor;
  if (!actor && entry.adminUserId !== undefined) {
    const admin = await tx.adminUser.findUnique({ where: { id: entry.adminUserId }, select: { email: true } });
    actor = admin?.email;
  }
  await tx.auditLog.create({
    data: {
      adminUserId: entry.adminUserId,
      actor: (actor ?? "cli").slice(0, 254),
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: entry.details ?? {},
      ip: entry.ip ?? null,
    },
  });
}
