import type { Tx } from "../db/tx";
import type { InputJsonValue } from "../generated/prisma/internal/prismaNamespace";
import type { Actor } from "./actor";

export interface AuditEntry {
  actor: Actor;
  action: string;
  targetType?: string;
  targetId?: string;
  /** Never secrets, card keys, payloads or form values: ids, counts, reasons. */
  details?: InputJsonValue;
  /** A sign-in attempt's typed e-mail when it matched no administrator (the row's actor name then). */
  claimedEmail?: string;
}

/**
 * The one writer of AuditLog rows (who, what, when, from where), in the
 * caller's transaction so the record and the change commit together or not
 * at all (issue 22.10). The table is append-only (trigger
 * `AuditLog_append_only`). The row's `actor` is "cli", "system",
 * "fulfiller:<token name>" (issue 39) or the administrator's e-mail (or
 * "buyer:" and the buyer's), read in the same transaction.
 */
export async function writeAuditLog(tx: Tx, { actor, action, targetType, targetId, details, claimedEmail }: AuditEntry): Promise<void> {
  let name: string = actor.kind;
  if (actor.kind === "admin") {
    const admin = actor.id === undefined ? null : await tx.adminUser.findUnique({ where: { id: actor.id }, select: { email: true } });
    name = admin?.email ?? claimedEmail ?? (actor.id === undefined ? "(unknown)" : `admin #${actor.id}`);
  } else if (actor.kind === "buyer") {
    // Issue 24.3: "buyer:<e-mail>", never mistaken for an administrator's e-mail.
    const user = actor.userId === undefined ? null : await tx.user.findUnique({ where: { id: actor.userId }, select: { email: true } });
    name = `buyer:${user?.email ?? claimedEmail ?? "(unknown)"}`;
  } else if (actor.kind === "fulfiller") {
    name = `fulfiller:${actor.tokenName ?? "(unknown)"}`; // issue 39: every call names its token
  }
  await tx.auditLog.create({
    data: {
      adminUserId: actor.kind === "admin" ? actor.id : undefined,
      actor: name.slice(0, 254),
      action,
      targetType,
      targetId,
      details: details ?? {},
      ip: actor.ip ?? null,
    },
  });
}
