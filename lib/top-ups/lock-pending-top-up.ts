import type { Tx } from "../db/tx";
import { appError } from "../errors";

/**
 * Locks a top-up request for its decision. Concurrent deciders queue on the
 * row lock; the second finds it decided and is refused, so points are
 * credited once however many approvals race.
 */
export async function lockPendingTopUp(tx: Tx, id: number) {
  const [row] = await tx.$queryRaw<{ id: number; userId: string; amountCents: bigint; transferReference: string; state: string }[]>`
    SELECT "id", "userId"::text AS "userId", "amountCents", "transferReference", "state"::text AS "state"
    FROM "TopUpRequest" WHERE "id" = ${id} FOR UPDATE`;
  if (!row) throw appError("not_found", "no such top-up request");
  if (row.state !== "pending") throw appError("conflict", `top-up request #${id} was already ${row.state}`);
  return row;
}
