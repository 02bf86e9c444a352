import { db } from "../db/client";

// A buyer's points as tests read them: the balance column and the ledger that
// must always add up to it (spec section 3, D22).

export async function balanceOf(userId: string): Promise<bigint> {
  return (await db().user.findUniqueOrThrow({ where: { id: userId } })).balanceCents;
}

/** The sum of the buyer's ledger rows (0 when there are none). */
export async function ledgerSum(userId: string): Promise<bigint> {
  const agg = await db().pointsLedger.aggregate({ where: { userId }, _sum: { deltaCents: true } });
  return agg._sum.deltaCents ?? 0n;
}
