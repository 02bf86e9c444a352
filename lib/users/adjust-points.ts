import { db } from "../db/client";
import { AppError, appError } from "../errors";
import { formatAmount } from "../protocol/amount";
import { getUserByEmail } from "./get-user-by-email";
import type { Actor } from "../audit/actor";
import { consumeOnceToken } from "../audit/consume-once-token";
import { writeAuditLog } from "../audit/write-audit-log";
import { changeBalance } from "../points/change-balance";

export { AdjustReasonSchema, PointsDeltaSchema } from "./adjust-points-input";

export interface AdjustPointsInput {
  email: string;
  deltaCents: bigint;
  /** The ledger row's reason, as the caller words it ("admin: …", "cli: …"). */
  reason: string;
  actor: Actor;
  /** The console form's one-time token: a second submission of it changes nothing (AlreadyDoneError). */
  onceToken?: string;
}

/**
 * An operator's manual credit or debit (CLI, admin console). Goes through
 * changeBalance like every other change, so it leaves a ledger row and can
 * never take the balance below zero; its audit row and the form's one-time
 * token are written in the same transaction. Returns the balance after.
 */
export async function adjustPoints({ email, deltaCents, reason, actor, onceToken }: AdjustPointsInput): Promise<bigint> {
  if (deltaCents === 0n) throw appError("bad_request", "amount must not be zero");
  if (!reason.trim()) throw appError("bad_request", "a reason is required");
  return db().$transaction(async (tx) => {
    await consumeOnceToken(tx, onceToken, "points.adjust");
    const user = await getUserByEmail(email, tx);
    let balance: bigint;
    try {
      balance = await changeBalance(tx, {
        userId: user.id,
        deltaCents,
        reason: reason.trim(),
        adminUserId: actor.kind === "admin" ? actor.id : undefined,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === "insufficient_balance") {
        // The guarded UPDATE wrote nothing, so the transaction is still usable.
        const { balanceCents } = await tx.user.findUniqueOrThrow({ where: { id: user.id }, select: { balanceCents: true } });
        throw appError(
          "insufficient_balance",
          `refused: ${formatAmount(deltaCents)} would take the balance of ${formatAmount(balanceCents)} below zero`,
        );
      }
      throw err;
    }
    await writeAuditLog(tx, {
      actor,
      action: "points.adjust",
      targetType: "user",
      targetId: user.id,
      details: { email: user.email, amount: formatAmount(deltaCents), reason: reason.trim(), balance: formatAmount(balance) },
    });
    return balance;
  });
}
