import { z } from "zod";
import type { Actor } from "../audit/actor";
import { consumeOnceToken } from "../audit/consume-once-token";
import { writeAuditLog } from "../audit/write-audit-log";
import { parseInput } from "../input/parse-input";
import { db } from "../db/client";
import { lockPendingTopUp } from "./lock-pending-top-up";

export const RejectReasonSchema = z.string().trim().min(1, "a reason is required").max(300, "must be at most 300 characters");

/** Issue 24.2: an administrator rejects a pending top-up request with a reason the buyer sees; no money moves. */
export async function rejectTopUp({ id, reason, actor, onceToken }: { id: number; reason: string; actor: Actor; onceToken?: string }) {
  const why = parseInput(RejectReasonSchema, reason);
  return db().$transaction(async (tx) => {
    await consumeOnceToken(tx, onceToken, "top_up.reject");
    const request = await lockPendingTopUp(tx, id);
    const decidedBy = actor.kind === "admin" ? `admin #${actor.id}` : actor.kind;
    const saved = await tx.topUpRequest.update({
      where: { id },
      data: { state: "rejected", decidedAt: new Date(), decidedBy, rejectReason: why },
    });
    await writeAuditLog(tx, {
      actor,
      action: "top_up.reject",
      targetType: "top_up",
      targetId: String(id),
      details: { userId: request.userId, reason: why },
    });
    return saved;
  });
}
