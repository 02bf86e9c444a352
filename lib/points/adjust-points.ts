import { db } from "../db/client";
import { AppError, appError } from "../errors";
import { formatAmount } from "../protocol/amount";
import { getUserByEmail } from "../users/get-user-by-email";
import { changeBalance } from "./change-balance";

export { AdjustReasonSchema, PointsDeltaSchema } from "./adjust-points-input";

export interface AdjustPointsInput {
  email: string;
  deltaCents: bigint;
  reason: string;
  adminUserId?: number;
}

/**
 * An operator's manual credit or debit (CLI, admin console). Goes through
 * changeBalance like every other change, so it leaves a ledger row and can
 * never take the balance below zero. Returns the balance after.
 */
export async function adjustPoints({ email, deltaCents, reason, adminUserId }: AdjustPointsInput): Promise<bigint> {
  if (deltaCents === 0n) throw appError("bad_request", "amount must not be zero");
  if (!reason.trim()) throw appError("bad_request", "a reason is required");
  return db().$transaction(async (tx) => {
    const user = await getUserByEmail(email, tx);
    try {
      return await changeBalance(tx, { userId: user.id, deltaCents, reason: reason.trim(), adminUserId });
    } catch (err) {
      if (err instanceof AppError && err.code === "insufficient_balance") {
        // The guarded UPDATE wrote nothing, so the transaction is still usable.
        const { balanceCents } = await tx.user.findUniqueOrThrow({ where: { id: user.id }, select: { balanceCents: true } });
        throw appError("insufficient_balance", `refused: ${formatAmount(deltaCents)} would take the balance of ${formatAmount(balanceCents)} below zero`);
      }
      throw err;
    }
  });
}
