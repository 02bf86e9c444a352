import { db } from "../db/client";
import { formFieldNames } from "./queue-row-fields";
import { decryptText } from "../crypto/secret-box";
import { purchaseWithHopsSelect } from "./purchase-hops";

/**
 * An order with everything the order page shows. The manual form is
 * returned as field NAMES only; values come through revealFormField (audited).
 * The delivered payload is reduced to its line count.
 */
export async function getOrderDetail(orderNo: string) {
  const order = await db().order.findUnique({
    where: { orderNo },
    include: {
      user: { select: { id: true, email: true } },
      credential: { select: { apiKey: true } },
      items: { include: { sku: { select: { skuCode: true } } } },
      fulfillment: { select: { source: true, deliveryFormat: true, payloadCiphertext: true, createdAt: true, adminUserId: true } },
      callbacks: { include: { attempts: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } },
      ledger: { orderBy: { id: "asc" } },
      upstreamPurchase: { select: purchaseWithHopsSelect },
      // Issue 26.3 (decision 0059): replacements bought upstream for this order's claims: their hops and costs.
      claims: {
        where: { replacementPurchase: { isNot: null } },
        orderBy: { id: "asc" },
        select: { id: true, replacementPurchase: { select: purchaseWithHopsSelect } },
      },
    },
  });
  if (!order) return null;
  const { manualFormData, fulfillment, ...rest } = order;
  const formFields = formFieldNames(manualFormData);
  let deliveredLines = 0;
  if (fulfillment) {
    try {
      // An auto delivery stores no payload: its lines are the order's card keys (lib/orders/order-view.ts deliveredLines).
      const parsed: unknown = fulfillment.payloadCiphertext ? JSON.parse(decryptText(fulfillment.payloadCiphertext)) : null;
      deliveredLines = Array.isArray(parsed) ? parsed.length : await countOrderKeys(order.id);
    } catch {
      deliveredLines = 0;
    }
  }
  return {
    ...rest,
    formFields,
    fulfillment: fulfillment
      ? {
          source: fulfillment.source,
          deliveryFormat: fulfillment.deliveryFormat,
          createdAt: fulfillment.createdAt,
          adminUserId: fulfillment.adminUserId,
          deliveredLines,
        }
      : null,
  };
}

/** The card keys an auto order took (SQL order_keys, decision 0103). */
async function countOrderKeys(orderId: number): Promise<number> {
  const [{ n }] = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM order_keys(${orderId})`;
  return n;
}
