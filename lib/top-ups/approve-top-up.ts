import { z } from "zod";
import type { Actor } from "../audit/actor";
import { consumeOnceToken } from "../audit/consume-once-token";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { changeBalance } from "../points/change-balance";
import { formatAmount } from "../protocol/amount";
import { lockPendingTopUp } from "./lock-pending-top-up";

export const TopUpIdSchema = z.coerce.number().int().min(1).max(2_147_483_647);

/**
 * Issue 24.2: an administrator (console, CLI) approves a top-up request: the
 * points are credited through the ledger (changeBalance) in the transaction
 * that marks the request approved, with its audit row. Decided once: a second
 * approval (a double click, the CLI and the console at once) finds the
 * request no longer pending and changes nothing (conflict; the console's
 * once-token turns its own repeat into "already done").
 */
export async function approveTopUp({ id, actor, onceToken }: { id: number; actor: Actor; onceToken?: string }) {
  return db().$transaction(async (tx) => {
    await consumeOnceToken(tx, onceToken, "top_up.approve");
    const request = await lockPendingTopUp(tx, id);
    const balance = await changeBalance(tx, {
      userId: request.userId,
      deltaCents: request.amountCents,
      reason: `top-up #${request.id}: ${request.transferReference}`,
      adminUserId: actor.kind === "admin" ? actor.id : undefined,
    });
    // changeBalance holds the buyer's row lock: the newest ledger row of this buyer is the one it wrote.
    const ledger = await tx.pointsLedger.findFirstOrThrow({
      where: { userId: request.userId },
      orderBy: { id: "desc" },
      select: { id: true },
    });
    const decidedBy = actor.kind === "admin" ? `admin #${actor.id}` : actor.kind;
    const saved = await tx.topUpRequest.update({
      where: { id },
      data: { state: "approved", decidedAt: new Date(), decidedBy, ledgerId: ledger.id },
    });
    await writeAuditLog(tx, {
      actor,
      action: "top_up.approve",
      targetType: "top_up",
      targetId: String(id),
      details: { userId: request.userId, amount: formatAmount(request.amountCents), balance: formatAmount(balance) },
    });
    return { ...saved, balanceCents: balance };
  });
}
