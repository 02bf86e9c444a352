import { db } from "../db/client";
import { queueOrderSelect, withFormFieldNames } from "./queue-row-fields";

/**
 * Orders in unknown_review (D25: the upstream gave no final answer in time),
 * oldest first, each with its upstream purchase (connection, upstream order
 * id, runs, last error, deadline, cost). Form data as field names only.
 */
export async function listReviewQueue(take = 50) {
  const rows = await db().order.findMany({
    where: { status: "unknown_review" },
    orderBy: { createdAt: "asc" },
    take,
    select: {
      ...queueOrderSelect,
      upstreamPurchase: {
        select: {
          status: true, upstreamOrderId: true, upstreamSkuId: true, attemptCount: true, lastError: true,
          deadlineAt: true, costCents: true, connection: { select: { name: true, baseUrl: true } },
        },
      },
    },
  });
  return rows.map(withFormFieldNames);
}
