import type { Account } from "../users/get-account";
import type { OrderView } from "../order-read/order-view";
import { CURRENCY, formatAmount } from "../protocol/amount";
import type { DujiaoOrderState } from "../protocol/dujiao-next";
import { PROTOCOL_VERSION } from "../protocol/headers";

// Our orders and account in Dujiao-Next's shapes (decision 0090;
// docs/peers/dujiao-next-docking.md): what its buyer's Go structs decode.
// Pure functions, used by the dialect's endpoints and by its callbacks.

/**
 * Our state in theirs. Their buyer (procurement_order_service.go) takes
 * delivered|completed as delivered, canceled as "roll back and refund my
 * customer", partially_refunded and refunded as they are, anything else as
 * still in progress. A failed order was refunded in full: canceled; so is a
 * delivered order refunded in full by after-sales.
 */
export function dujiaoState(order: Pick<OrderView, "status" | "amountCents" | "refundedCents">): DujiaoOrderState {
  if (order.status === "failed") return "canceled";
  if (order.status !== "delivered") return "paid";
  if (order.refundedCents > 0n && order.refundedCents >= order.amountCents) return "canceled";
  return order.refundedCents > 0n ? "partially_refunded" : "completed";
}

/** `fulfillment` while the keys stand: payload one key per line (what their buyer hands its customer); delivery_data is a map in their decoder, we have none. */
function fulfillmentOf(order: OrderView) {
  const state = dujiaoState(order);
  if (!order.fulfillment || (state !== "completed" && state !== "partially_refunded")) return {};
  return {
    fulfillment: {
      type: order.fulfillment.source,
      status: "delivered",
      payload: order.fulfillment.lines.join("\n"),
      delivery_data: null,
      ...(order.completedAt ? { delivered_at: order.completedAt.toISOString() } : {}),
    },
  };
}

/** POST /ping: user_id is a number in their decoder; ours are UUIDs, so the key's id stands for it. */
export function dujiaoPingWire(siteName: string, credentialId: number, account: Account) {
  return {
    ok: true,
    site_name: siteName,
    protocol_version: PROTOCOL_VERSION,
    user_id: credentialId,
    balance: formatAmount(account.balanceCents),
    currency: CURRENCY,
    member_level: { id: account.memberLevel.id, name: account.memberLevel.name, slug: account.memberLevel.slug, icon: "" },
  };
}

/** POST /orders: the answer their CreateUpstreamOrderResp reads (and the head of a read). */
export function dujiaoOrderCreatedWire(order: OrderView) {
  return {
    ok: true,
    order_id: order.id,
    order_no: order.orderNo,
    status: dujiaoState(order),
    amount: formatAmount(order.amountCents),
    currency: CURRENCY,
  };
}

/** GET /orders/{id}: their UpstreamOrderDetail (and the items their own server adds). */
export function dujiaoOrderReadWire(order: OrderView) {
  return {
    ...dujiaoOrderCreatedWire(order),
    refunded_amount: formatAmount(order.refundedCents),
    refund_records: [],
    items: order.items.map((i) => ({
      product_id: i.productId,
      sku_id: i.skuId,
      title: i.title,
      quantity: i.quantity,
      unit_price: formatAmount(i.unitPriceCents),
      total_price: formatAmount(i.totalPriceCents),
    })),
    ...fulfillmentOf(order),
  };
}

/** Their callback body (downstream_callback_service.go callbackRequest). */
export function dujiaoCallbackWire(order: OrderView, now = new Date()) {
  const status = dujiaoState(order);
  return {
    event: status === "completed" ? "order.fulfilled" : "order.status_changed",
    order_id: order.id,
    order_no: order.orderNo,
    downstream_order_no: order.downstreamOrderNo,
    status,
    ...fulfillmentOf(order),
    timestamp: Math.floor(now.getTime() / 1000),
  };
}
