import { auditAdmin } from "../admin-auth/audit-admin";
import type { AdminSession } from "../admin-auth/require-admin";
import type { Tx } from "../db/tx";
import type { AuditEntry } from "../audit/write-audit-log";

/**
 * The audit row of a console save of a category, product or SKU
 * (`<kind>.create` or `<kind>.update`), in the save's transaction; returns
 * what the console's save actions answer.
 */
export async function auditCatalogSave(
  tx: Tx,
  { admin, kind, updating, id, details }: { admin: AdminSession; kind: "category" | "product" | "sku"; updating: boolean; id: number; details: AuditEntry["details"] },
): Promise<{ id: number; created: boolean }> {
  await auditAdmin({
    adminUserId: admin.id, actor: admin.email, action: `${kind}.${updating ? "update" : "create"}`,
    targetType: kind, targetId: String(id), details, ip: admin.ip,
  }, tx);
  return { id, created: !updating };
}
