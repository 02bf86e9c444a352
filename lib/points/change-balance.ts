import { AppError } from "../errors";
import type { Tx } from "../db/tx";

export interface BalanceChange {
  userId: string;
  deltaCents: bigint;
  reason: string;
  orderId?: number;
  adminUserId?: number;
}

/**
 * The only way a balance changes: a guarded UPDATE (never below zero) and an
 * immutable ledger row with the balance after, in the caller's transaction,
 * so the cached balance always equals the ledger sum. Throws
 * `insufficient_balance` when a debit would go below zero.
 */
export async function changeBalance(tx: Tx, change: BalanceChange): Promise<bigint> {
  const { userId, deltaCents } = change;
  // One statement: the row lock taken by UPDATE serialises concurrent changes
  // of one user, and the WHERE clause makes the check and the write atomic.
  const rows = await tx.$queryRaw<{ balanceCents: bigint }[]>`
    UPDATE "User" SET "balanceCents" = "balanceCents" + ${deltaCents}, "updatedAt" = now()
    WHERE "id" = ${userId}::uuid AND "balanceCents" + ${deltaCents} >= 0
    RETURNING "balanceCents"`;
  if (rows.length === 0) {
    const exists = await tx.user.count({ where: { id: userId } });
    if (!exists) throw new AppError("user_not_found", 404, "user not found");
    throw new AppError("insufficient_balance", 400, "points balance too low");
  }
  const balanceAfterCents = rows[0].balanceCents;
  await tx.pointsLedger.create({
    data: {
      userId,
      deltaCents,
      balanceAfterCents,
      reason: change.reason,
      orderId: change.orderId,
      adminUserId: change.adminUserId,
    },
  });
  return balanceAfterCents;
}
