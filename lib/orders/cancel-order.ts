import { db } from "../db/client";
import { appError } from "../errors";

/**
 * Cancel request (spec 4.7, D23). Neither profile can cancel: an existing
 * order of the calling credential, in any state, gets 409
 * cancel_not_allowed; an unknown or foreign order gets 404 order_not_found,
 * so the answer reveals nothing about other credentials' orders.
 */
export async function cancelOrder({ credentialId, orderId }: { credentialId: number; orderId: number }): Promise<never> {
  const inRange = Number.isSafeInteger(orderId) && orderId > 0 && orderId <= 2_147_483_647;
  const order = inRange ? await db().order.findFirst({ where: { id: orderId, credentialId }, select: { id: true } }) : null;
  if (!order) throw appError("order_not_found", "order not found");
  throw appError("cancel_not_allowed", "orders cannot be cancelled");
}
