import { appError } from "../errors";
import type { Tx } from "../db/tx";

export interface BalanceChange {
  userId: string;
  deltaCents: bigint;
  reason: string;
  orderId?: number;
  adminUserId?: number;
  /** Issue 36: the payment this credits; the ledger's unique paymentId makes a second credit of it fail. */
  paymentId?: number;
}

/**
 * The way a balance changes: a guarded UPDATE (never below zero) and an
 * immutable ledger row with the balance after, in the caller's transaction,
 * so the cached balance always equals the ledger sum. Throws
 * `insufficient_balance` when a debit would go below zero.
 *
 * The one other writer is the SQL function place_order (the debit of a new
 * supplier-API order, lib/orders/place-order.ts), which does the same guarded
 * UPDATE and ledger insert inside the single statement that writes the
 * order, so an order is one round trip in autocommit. Keep the two in step.
 */
export async function changeBalance(tx: Tx, change: BalanceChange): Promise<bigint> {
  // Issue 38: a credit (a refund, a top-up) always applies, also to a balance below zero on a credit
  // line; a debit here (an administrator's) never goes below zero: only orders use the credit line.
  const { userId, deltaCents } = change;
  // One statement, one round trip: the row lock taken by UPDATE serialises
  // concurrent changes of one user, the WHERE clause makes the check and the
  // write atomic, and the ledger row is written by the same statement. The
  // lock is held until the caller commits, so callers debit last and the
  // time between this statement and COMMIT stays one round trip (orders/s).
  const rows = await tx.$queryRaw<{ balanceCents: bigint }[]>`
    WITH u AS (
      UPDATE "User" SET "balanceCents" = "balanceCents" + ${deltaCents}, "updatedAt" = now()
      WHERE "id" = ${userId}::uuid AND (${deltaCents}::bigint >= 0 OR "balanceCents" + ${deltaCents} >= 0)
      RETURNING "balanceCents"
    ), l AS (
      INSERT INTO "PointsLedger" ("userId", "deltaCents", "balanceAfterCents", "reason", "orderId", "adminUserId", "paymentId")
      SELECT ${userId}::uuid, ${deltaCents}, u."balanceCents", ${change.reason}, ${change.orderId ?? null}::int, ${change.adminUserId ?? null}::int,
        ${change.paymentId ?? null}::int FROM u
    )
    SELECT "balanceCents" FROM u`;
  if (rows.length === 0) {
    const exists = await tx.user.count({ where: { id: userId } });
    if (!exists) throw appError("user_not_found", "user not found");
    throw appError("insufficient_balance", "points balance too low");
  }
  return rows[0].balanceCents;
}
