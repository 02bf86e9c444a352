import type { Tx } from "../db/tx";
import type { InputJsonValue } from "../generated/prisma/internal/prismaNamespace";

export interface AuditEntry {
  /** The administrator who acted; absent for the CLI and the system. */
  adminUserId?: number;
  /** "cli", "system" or the admin's e-mail; defaults from adminUserId, else "cli". */
  actor?: string;
  action: string;
  targetType: string;
  targetId: string;
  /** Never secrets, payloads or form values: ids, counts, reasons. */
  details?: InputJsonValue;
}

/** One AuditLog row in the caller's transaction, so the record and the action commit together. */
export async function writeAuditLog(tx: Tx, entry: AuditEntry): Promise<void> {
  let actor = entry.actor;
  if (!actor && entry.adminUserId !== undefined) {
    const admin = await tx.adminUser.findUnique({ where: { id: entry.adminUserId }, select: { email: true } });
    actor = admin?.email;
  }
  await tx.auditLog.create({
    data: {
      adminUserId: entry.adminUserId,
      actor: actor ?? "cli",
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: entry.details ?? {},
    },
  });
}
