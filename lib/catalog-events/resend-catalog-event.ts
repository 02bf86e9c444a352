import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { enqueueCatalogEventAttempt } from "./queue-catalog-event";

/**
 * Issue 12.2, as D28 for order callbacks: the administrator resends a
 * catalogue event that failed (or was delivered and the downstream asks
 * again): the same stored body, freshly signed per attempt, through a fresh
 * series of attempts. Refuses an event that is still pending. Audited.
 */
export async function resendCatalogEvent(input: { eventId: number; actor: Actor; userId?: string }) {
  return db().$transaction(async (tx) => {
    // `userId` (the portal's buyer): another buyer's event answers as a missing one (issue 24.3).
    const [row] = await tx.$queryRaw<{ status: string; credentialId: number }[]>`
      SELECT e."status"::text AS status, e."credentialId" FROM "CatalogEvent" e JOIN "ApiCredential" c ON c."id" = e."credentialId"
      WHERE e."id" = ${input.eventId} AND (${input.userId ?? null}::uuid IS NULL OR c."userId" = ${input.userId ?? null}::uuid) FOR UPDATE OF e`;
    if (!row) throw appError("callback_not_found", `catalogue event ${input.eventId} not found`);
    if (row.status === "pending") throw appError("callback_pending", `catalogue event ${input.eventId} is still being delivered`);
    await tx.catalogEvent.update({
      where: { id: input.eventId },
      data: { status: "pending", attemptCount: 0, nextAttemptAt: new Date(), deliveredAt: null },
    });
    await enqueueCatalogEventAttempt(tx, input.eventId, 0);
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "catalog_event.resend",
      targetType: "catalog_event",
      targetId: String(input.eventId),
      details: { credentialId: row.credentialId, previousStatus: row.status },
    });
    return { eventId: input.eventId, status: "pending" as const };
  });
}
