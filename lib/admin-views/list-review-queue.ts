import { db } from "../db/client";
import { purchaseWithHopsSelect } from "./purchase-hops";
import { queueOrderSelect, withFormFieldNames } from "./queue-row-fields";

/**
 * Orders in unknown_review (D25: the upstream gave no final answer in time),
 * oldest first, each with its upstream purchase (connection, upstream order
 * id, runs, last error, deadline, cost) and the hops it made (issue 26.2).
 * Form data as field names only.
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
          ...purchaseWithHopsSelect,
          upstreamOrderId: true,
          attemptCount: true,
          deadlineAt: true,
          connection: { select: { name: true, baseUrl: true } },
        },
      },
    },
  });
  return rows.map(withFormFieldNames);
}
