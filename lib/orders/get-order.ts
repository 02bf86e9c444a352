import { db } from "../db/client";
import { loadOrderView, type OrderView } from "../order-read/order-view";
import { appError } from "../errors";

/**
 * Reads an order of the calling credential (spec 4.6). Another credential's
 * order and a missing one answer the same 404 order_not_found (D20).
 */
export async function getOrder({
  credentialId,
  orderId,
  streamAbove,
}: {
  credentialId: number;
  orderId: number;
  /** Issue 40.3: see loadOrderView. */
  streamAbove?: number;
}): Promise<OrderView> {
  const order =
    Number.isSafeInteger(orderId) && orderId > 0 && orderId <= 2_147_483_647
      ? await loadOrderView(db(), credentialId, orderId, { streamAbove })
      : null;
  if (!order) throw appError("order_not_found", "order not found");
  return order;
}
