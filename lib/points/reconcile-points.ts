import { db } from "../db/client";

export interface BalanceMismatch {
  userId: string;
  email: string;
  balanceCents: bigint;
  ledgerSumCents: bigint;
  /** balanceAfter of the user's latest ledger row; null when there is none. */
  lastBalanceAfterCents: bigint | null;
}

export interface ReconcileResult {
  ok: boolean;
  usersChecked: number;
  mismatches: BalanceMismatch[];
}

/**
 * Checks the ledger invariant for every user: the cached balance equals the
 * sum of the ledger, and equals the balanceAfter of the latest ledger row
 * (which would catch a row written with a wrong running total). Read-only.
 */
export async function reconcilePoints(): Promise<ReconcileResult> {
  // One REPEATABLE READ snapshot for both statements, so a change committed
  // meanwhile cannot show up as a mismatch.
  const [usersChecked, mismatches] = await db().$transaction(
    [
      db().user.count(),
      db().$queryRaw<BalanceMismatch[]>`
        WITH sums AS (
          SELECT "userId", SUM("deltaCents")::bigint AS total FROM "PointsLedger" GROUP BY "userId"
        ), latest AS (
          SELECT DISTINCT ON ("userId") "userId", "balanceAfterCents" FROM "PointsLedger" ORDER BY "userId", "id" DESC
        )
        SELECT u."id"::text AS "userId", u."email", u."balanceCents",
               COALESCE(s.total, 0)::bigint AS "ledgerSumCents", l."balanceAfterCents" AS "lastBalanceAfterCents"
        FROM "User" u LEFT JOIN sums s ON s."userId" = u."id" LEFT JOIN latest l ON l."userId" = u."id"
        WHERE u."balanceCents" <> COALESCE(s.total, 0) OR u."balanceCents" <> COALESCE(l."balanceAfterCents", 0)
        ORDER BY u."email"`,
    ],
    { isolationLevel: "RepeatableRead" },
  );
  return { ok: mismatches.length === 0, usersChecked, mismatches };
}
