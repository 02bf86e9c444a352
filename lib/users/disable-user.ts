import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { endBuyerSessions } from "../portal-auth/buyer-session";
import { getUserByEmail } from "./get-user-by-email";

/**
 * Issue 24.1: disables a buyer. Its portal sessions end in the same
 * transaction (every instance reads the session row on every request), its
 * API keys stop authenticating within a second (the key look-up reads the
 * user's status, decision 0028) and no new sign-in succeeds. Idempotent.
 */
export async function disableUser({ email, actor }: { email: string; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const user = await getUserByEmail(email, tx);
    const sessions = await endBuyerSessions(tx, user.id);
    if (user.status === "disabled") return { id: user.id, email: user.email, disabled: true, sessionsEnded: sessions };
    await tx.user.update({ where: { id: user.id }, data: { status: "disabled" } });
    await writeAuditLog(tx, {
      actor,
      action: "user.disable",
      targetType: "user",
      targetId: user.id,
      details: { email: user.email, sessionsEnded: sessions },
    });
    return { id: user.id, email: user.email, disabled: true, sessionsEnded: sessions };
  });
}
