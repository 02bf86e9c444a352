import { onPool } from "../db/sql-rows";

export interface BalanceMismatch {
  userId: string;
  email: string;
  balanceCents: bigint;
  ledgerSumCents: bigint;
  /** balanceAfter of the user's latest ledger row; null when there is none. */
  lastBalanceAfterCents: bigint | null;
}

/** Issue 36: a payment whose ledger credits are not exactly one of its amount when paid, none otherwise. */
export interface PaymentMismatch {
  paymentNo: string;
  state: string;
  amountCents: bigint;
  credits: number;
  creditedCents: bigint;
}

export interface ReconcileResult {
  ok: boolean;
  usersChecked: number;
  mismatches: BalanceMismatch[];
  paymentsChecked: number;
  paymentMismatches: PaymentMismatch[];
}

/**
 * Checks the ledger invariant for every user: the cached balance equals the
 * sum of the ledger, and equals the balanceAfter of the latest ledger row
 * (which would catch a row written with a wrong running total). Read-only.
 *
 * One statement, so one snapshot: a change committed meanwhile cannot show
 * up as a mismatch. On the plain driver (lib/db/sql-rows.ts): operators run
 * it from scripts, and Prisma's query engine cost a CLI run about 0.2 s of
 * set-up for this one query (issue 28.4).
 */
export async function reconcilePoints(): Promise<ReconcileResult> {
  const rows = await onPool(
    `WITH sums AS (
       SELECT "userId", SUM("deltaCents")::bigint AS total FROM "PointsLedger" GROUP BY "userId"
     ), latest AS (
       SELECT DISTINCT ON ("userId") "userId", "balanceAfterCents" FROM "PointsLedger" ORDER BY "userId", "id" DESC
     ), mismatched AS (
       SELECT u."id"::text AS "userId", u."email", u."balanceCents",
              COALESCE(s.total, 0)::bigint AS "ledgerSumCents", l."balanceAfterCents" AS "lastBalanceAfterCents"
       FROM "User" u LEFT JOIN sums s ON s."userId" = u."id" LEFT JOIN latest l ON l."userId" = u."id"
       WHERE u."balanceCents" <> COALESCE(s.total, 0) OR u."balanceCents" <> COALESCE(l."balanceAfterCents", 0)
     )
     SELECT (SELECT count(*)::int FROM "User") AS "usersChecked", m.*
     FROM (SELECT 1) AS one LEFT JOIN mismatched m ON true
     ORDER BY m."email"`,
    [],
  );
  // int8 columns arrive as strings from the plain driver.
  const mismatches: BalanceMismatch[] = rows
    .filter((r) => r.userId !== null)
    .map((r) => ({
      userId: String(r.userId),
      email: String(r.email),
      balanceCents: BigInt(r.balanceCents as string),
      ledgerSumCents: BigInt(r.ledgerSumCents as string),
      lastBalanceAfterCents: r.lastBalanceAfterCents === null ? null : BigInt(r.lastBalanceAfterCents as string),
    }));
  const payments = await reconcilePayments();
  return {
    ok: mismatches.length === 0 && payments.mismatches.length === 0,
    usersChecked: Number(rows[0].usersChecked),
    mismatches,
    paymentsChecked: payments.checked,
    paymentMismatches: payments.mismatches,
  };
}

/**
 * Issue 36: every paid payment has exactly one ledger credit of its amount,
 * and no other payment has any. One statement; a payment and its credit are
 * written in one transaction, so one snapshot sees both or neither.
 */
async function reconcilePayments(): Promise<{ checked: number; mismatches: PaymentMismatch[] }> {
  const rows = await onPool(
    `WITH per AS (
       SELECT p."paymentNo", p."state"::text AS "state", p."amountCents",
              count(l."id")::int AS "credits", COALESCE(sum(l."deltaCents"), 0)::bigint AS "creditedCents"
       FROM "Payment" p LEFT JOIN "PointsLedger" l ON l."paymentId" = p."id"
       GROUP BY p."id"
     )
     SELECT (SELECT count(*)::int FROM per) AS "checked", m.*
     FROM (SELECT 1) AS one LEFT JOIN (
       SELECT * FROM per
       WHERE CASE WHEN "state" = 'paid' THEN "credits" <> 1 OR "creditedCents" <> "amountCents" ELSE "credits" <> 0 END
     ) m ON true
     ORDER BY m."paymentNo"`,
    [],
  );
  const mismatches = rows
    .filter((r) => r.paymentNo !== null)
    .map((r) => ({
      paymentNo: String(r.paymentNo),
      state: String(r.state),
      amountCents: BigInt(r.amountCents as string),
      credits: Number(r.credits),
      creditedCents: BigInt(r.creditedCents as string),
    }));
  return { checked: Number(rows[0].checked), mismatches };
}
