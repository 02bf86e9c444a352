import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { enqueueCallbackAttempt } from "./queue-callback";

/**
 * D28: the administrator resends a callback that failed (or was delivered and
 * the downstream asks again). The same stored body is sent, with a fresh
 * signature per attempt, through a fresh series of attempts on the retry
 * schedule. Refuses a callback that is still pending. Returns JSON-able data.
 */
export async function resendCallback(input: { callbackId: number; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; orderId: number }[]>`
      SELECT "status"::text AS status, "orderId" FROM "Callback" WHERE "id" = ${input.callbackId} FOR UPDATE`;
    if (!row) throw appError("callback_not_found", `callback ${input.callbackId} not found`);
    if (row.status === "pending") throw appError("callback_pending", `callback ${input.callbackId} is still being delivered`);
    await tx.callback.update({
      where: { id: input.callbackId },
      data: { status: "pending", attemptCount: 0, nextAttemptAt: new Date(), deliveredAt: null },
    });
    await enqueueCallbackAttempt(tx, input.callbackId, 0);
    await writeAuditLog(tx, {
      actor: input.actor,
      action: "callback.resend",
      targetType: "callback",
      targetId: String(input.callbackId),
      details: { orderId: row.orderId, previousStatus: row.status },
    });
    return { callbackId: input.callbackId, status: "pending" as const };
  });
}
