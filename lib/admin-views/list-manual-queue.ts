import { db } from "../db/client";

/**
 * Orders an administrator must act on: manual products still processing, and
 * any order in unknown_review. Oldest first. The form is returned as field
 * names only (values need an audited reveal on the order page).
 */
export async function listManualQueue(take = 50) {
  const rows = await db().order.findMany({
    where: {
      OR: [
        { status: "unknown_review" },
        { status: "processing", items: { some: { sku: { product: { fulfillmentType: "manual" } } } } },
      ],
    },
    orderBy: { createdAt: "asc" },
    take,
    select: {
      id: true, orderNo: true, downstreamOrderNo: true, status: true, profile: true, amountCents: true, createdAt: true, manualFormData: true,
      user: { select: { email: true } },
      items: { select: { title: true, quantity: true } },
    },
  });
  return rows.map(({ manualFormData, ...r }) => ({
    ...r,
    formFields: manualFormData && typeof manualFormData === "object" && !Array.isArray(manualFormData) ? Object.keys(manualFormData) : [],
  }));
}
