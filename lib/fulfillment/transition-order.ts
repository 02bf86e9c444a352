import { alertOrderReview, alertUpstreamPurchaseFailed } from "../alerts/order-alerts";
import { queueOrderCallback } from "../callbacks/queue-callback";
import { encryptText } from "../crypto/secret-box";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import type { DeliveryFormat, OrderStatus } from "../generated/prisma/enums";
import { changeBalance } from "../points/change-balance";
import { canTransition, isPublicChange } from "./order-states";
import { releaseStock } from "./release-stock";

export type OrderChange =
  /** `lines` become delivery_data (D21); stored encrypted as a JSON array. */
  | { to: "delivered"; lines: string[]; source: "manual" | "upstream"; adminUserId?: number }
  /** `reason` becomes the P error_message (D22): short, for the buyer, no secrets. */
  | {
      to: "failed";
      reason: string;
      adminUserId?: number;
      /** Issue 25: an upstream purchase failed (operators are alerted); our words, no secrets. */ upstreamFailure?: string;
    }
  | { to: "unknown_review" };

export interface TransitionResult {
  orderId: number;
  orderNo: string;
  from: OrderStatus;
  to: OrderStatus;
  /** The Profile U callback queued by this change (D26), if any. */
  callbackId: number | null;
}

const MAX_ERROR_MESSAGE = 200;

/**
 * Moves an order along the state machine (order-states.ts) with all its
 * effects, inside the caller's transaction:
 * - delivered: the Fulfillment (lines encrypted), completedAt;
 * - failed: refund of what the order debited (ledger row with the order id),
 *   stock released (D22), error_message;
 * - each change of public status of a Profile U order with a callback_url:
 *   the Callback row and its delivery job (D26, D28).
 * The order row is locked first (FOR UPDATE), so of two concurrent
 * transitions one waits, then sees the new status and is refused.
 */
export async function transitionOrder(tx: Tx, orderId: number, change: OrderChange): Promise<TransitionResult> {
  const [order] = await tx.$queryRaw<{ id: number; orderNo: string; status: OrderStatus; userId: string }[]>`
    SELECT "id", "orderNo", "status"::text AS "status", "userId"::text AS "userId"
    FROM "Order" WHERE "id" = ${orderId} FOR UPDATE`;
  if (!order) throw appError("order_not_found", `order ${orderId} not found`);
  const from = order.status;
  if (!canTransition(from, change.to)) {
    const final = from === "delivered" || from === "failed";
    throw final
      ? appError("order_final", `order ${order.orderNo} is already ${from}; a delivered or failed order cannot change`)
      : appError("invalid_transition", `order ${order.orderNo} is ${from}; it cannot move to ${change.to}`);
  }

  if (change.to === "delivered") {
    if (!change.lines.length || change.lines.some((l) => typeof l !== "string" || !l.length)) {
      throw appError("bad_request", "a delivery needs at least one non-empty line");
    }
    const [item] = await tx.$queryRaw<{ deliveryFormat: string }[]>`
      SELECT p."deliveryFormat"::text AS "deliveryFormat" FROM "OrderItem" oi
      JOIN "Sku" s ON s."id" = oi."skuId" JOIN "Product" p ON p."id" = s."productId"
      WHERE oi."orderId" = ${orderId} ORDER BY oi."id" LIMIT 1`;
    await tx.fulfillment.create({
      data: {
        orderId,
        source: change.source,
        deliveryFormat: (item?.deliveryFormat ?? "text") as DeliveryFormat,
        payloadCiphertext: encryptText(JSON.stringify(change.lines)),
        adminUserId: change.adminUserId,
      },
    });
    await tx.order.update({ where: { id: orderId }, data: { status: "delivered", completedAt: new Date(), errorMessage: null } });
  } else if (change.to === "failed") {
    const reason = change.reason.trim().slice(0, MAX_ERROR_MESSAGE) || "order failed";
    await refundOrder(tx, order, change.adminUserId);
    await releaseStock(tx, orderId);
    await tx.order.update({ where: { id: orderId }, data: { status: "failed", completedAt: new Date(), errorMessage: reason } });
    if (change.upstreamFailure !== undefined) await alertUpstreamPurchaseFailed(tx, orderId, change.upstreamFailure); // issue 25
  } else {
    await tx.order.update({ where: { id: orderId }, data: { status: "unknown_review" } });
    await alertOrderReview(tx, orderId); // issue 25
  }

  const callbackId = isPublicChange(from, change.to) ? await queueOrderCallback(tx, { orderId }) : null;
  return { orderId, orderNo: order.orderNo, from, to: change.to, callbackId };
}

/** Gives back what the order took: the net of its ledger rows (never more, never twice). */
async function refundOrder(tx: Tx, order: { id: number; orderNo: string; userId: string }, adminUserId?: number) {
  const { _sum } = await tx.pointsLedger.aggregate({ where: { orderId: order.id }, _sum: { deltaCents: true } });
  const debited = -(_sum.deltaCents ?? 0n);
  if (debited <= 0n) return;
  await changeBalance(tx, {
    userId: order.userId,
    deltaCents: debited,
    reason: `refund: order ${order.orderNo} failed`,
    orderId: order.id,
    adminUserId,
  });
}
