import { db } from "../db/client";
import { queueOrderSelect, withFormFieldNames } from "./queue-row-fields";

/**
 * Orders an administrator must act on: manual products still processing, and
 * any order in unknown_review. Oldest first. The form is returned as field
 * names only (values need an audited reveal on the order page).
 */
export async function listManualQueue(take = 50) {
  const rows = await db().order.findMany({
    where: {
      OR: [{ status: "unknown_review" }, { status: "processing", items: { some: { sku: { product: { fulfillmentType: "manual" } } } } }],
    },
    orderBy: { createdAt: "asc" },
    take,
    select: queueOrderSelect,
  });
  return rows.map(withFormFieldNames);
}
