import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { writeAuditLog, type AuditEntry } from "../audit/write-audit-log";

export type AdminAuditEntry = AuditEntry & { actor: string };

/**
 * One AuditLog row for an admin console action, with the client IP. The
 * console's name for lib/audit's writer; joins the caller's transaction when
 * given one.
 */
export async function auditAdmin(entry: AdminAuditEntry, tx: Tx = db()): Promise<void> {
  await writeAuditLog(tx, entry);
}
