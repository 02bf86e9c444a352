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
  // One statement, one round trip: the row lock taken by UPDATE serialises
  // concurrent changes of one user, the WHERE clause makes the check and the
  // write atomic, and the ledger row is written by the same statement. The
  // lock is held until the caller commits, so callers debit last and the
  // time between this statement and COMMIT stays one round trip (orders/s).
  const rows = await tx.$queryRaw<{ balanceCents: bigint }[]>`
    WITH u AS (
      UPDATE "User" SET "balanceCents" = "balanceCents" + ${deltaCents}, "updatedAt" = now()
      WHERE "id" = ${userId}::uuid AND "balanceCents" + ${deltaCents} >= 0
      RETURNING "balanceCents"
    ), l AS (
      INSERT INTO "PointsLedger" ("userId", "deltaCents", "balanceAfterCents", "reason", "orderId", "adminUserId")
      SELECT ${userId}::uuid, ${deltaCents}, u."balanceCents", ${change.reason}, ${change.orderId ?? null}::int, ${change.adminUserId ?? null}::int FROM u
    )
    SELECT "balanceCents" FROM u`;
  if (rows.length === 0) {
    const exists = await tx.user.count({ where: { id: userId } });
    if (!exists) throw new AppError("user_not_found", 404, "user not found");
    throw new AppError("insufficient_balance", 400, "points balance too low");
  }
  return rows[0].balanceCents;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;
const sqlInt = (n: number | undefined) => {
  if (n === undefined) return "NULL";
  if (!Number.isSafeInteger(n)) throw new TypeError("not an integer");
  return String(n);
};

/**
 * changeBalance as the LAST statement of a transaction, sent together with
 * its COMMIT in one simple-protocol message. A debit row-locks the user from
 * this statement until COMMIT; sending both at once keeps that window to the
 * statement and the commit itself, instead of also waiting for this process's
 * event loop between them (under load that wait dominated and capped one
 * buyer's orders/s). Consequences the caller must accept:
 *  - the transaction is committed when this resolves; the caller's
 *    transaction callback must return right after it. The message ends with
 *    a fresh BEGIN, so the client's own COMMIT closes an empty transaction
 *    (no locks, no warning in the server log) instead of finding none;
 *  - the guard is the CHECK constraint User_balance_non_negative: a debit
 *    that would go below zero fails the statement, PostgreSQL skips the
 *    COMMIT, and this throws insufficient_balance (the caller rolls back);
 *    a missing user fails it too (user_not_found).
 * Values are inlined (a multi-statement message cannot carry parameters);
 * each is validated or escaped here. `precedingStatements` (complete SQL
 * statements with only values the caller produced and validated itself, never
 * request text) run first in the same message, inside the same transaction.
 */
export async function changeBalanceAndCommit(tx: Tx, change: BalanceChange, precedingStatements: string[] = []): Promise<void> {
  const { userId, deltaCents } = change;
  if (!UUID_RE.test(userId)) throw new TypeError("userId is not a UUID");
  const delta = BigInt(deltaCents).toString();
  try {
    await tx.$executeRawUnsafe(`
      ${precedingStatements.map((sql) => `${sql};`).join("\n")}
      WITH u AS (
        UPDATE "User" SET "balanceCents" = "balanceCents" + ${delta}, "updatedAt" = now()
        WHERE "id" = '${userId}'::uuid
        RETURNING "balanceCents"
      )
      , l AS (
        INSERT INTO "PointsLedger" ("userId", "deltaCents", "balanceAfterCents", "reason", "orderId", "adminUserId")
        SELECT '${userId}'::uuid, ${delta}, u."balanceCents", ${sqlText(change.reason)}, ${sqlInt(change.orderId)}, ${sqlInt(change.adminUserId)} FROM u
        RETURNING 1
      )
      -- No such user: division by zero fails the statement, so the COMMIT never runs.
      SELECT 1 / count(*)::int AS "changed" FROM l;
      COMMIT;
      BEGIN;`);
  } catch (err) {
    const text = JSON.stringify(err, Object.getOwnPropertyNames(err as object));
    if (text.includes("User_balance_non_negative")) throw new AppError("insufficient_balance", 400, "points balance too low");
    if (text.includes("division by zero")) throw new AppError("user_not_found", 404, "user not found");
    throw err;
  }
}
