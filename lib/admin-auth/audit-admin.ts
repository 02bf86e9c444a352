import { db } from "../db/client";
import type { Tx } from "../db/tx";
import type { InputJsonValue } from "../generated/prisma/internal/prismaNamespace";

export interface AdminAuditEntry {
  adminUserId?: number;
  /** The admin's e-mail, or what was typed at sign-in when no admin matched. */
  actor: string;
  action: string;
  targetType?: string;
  targetId?: string;
  /** Ids, counts, reasons: never secrets, payloads or form values. */
  details?: InputJsonValue;
  ip?: string | null;
}

/**
 * One AuditLog row for an admin console action, with the client IP (who,
 * what, when, from where). Joins the caller's transaction when given one so
 * the record and the action commit together.
 */
export async function auditAdmin(entry: AdminAuditEntry, tx: Tx = db()): Promise<void> {
  await tx.auditLog.create({
    data: {
      adminUserId: entry.adminUserId,
      actor: entry.actor.slice(0, 254),
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: entry.details ?? {},
      ip: entry.ip ?? null,
    },
  });
}
