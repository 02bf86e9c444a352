import type { OrderView } from "../order-read/order-view";
import { CURRENCY, formatAmount } from "../protocol/amount";

// Purchase order on the wire (spec 2.5), per profile. Pure functions: used by
// the supplier API's order endpoints (endpoints/orders.ts) and by the Profile
// U callback payload (section 6, lib/callbacks/queue-callback.ts), which must
// show the same fulfillment object, so the one serializer of an order lives
// here beside the catalogue's (lib/protocol stays free of services).

type WireProfile = "U" | "P";

/** unknown_review is internal and always reported as processing (spec 3). */
export function publicStatus(status: OrderView["status"]): "processing" | "delivered" | "failed" {
  return status === "unknown_review" ? "processing" : status;
}

/**
 * D21: type, status, payload (lines joined by \n), delivery_data (one string
 * per line). Profile U always says card_key; Profile P says apple_account for
 * auto delivery of apple_account products, card_key for other auto delivery,
 * provider_delivery for manual and upstream delivery.
 */
export function fulfillmentWire(profile: WireProfile, f: NonNullable<OrderView["fulfillment"]>) {
  let type = "card_key";
  if (profile === "P") {
    if (f.source !== "auto") type = "provider_delivery";
    else if (f.deliveryFormat === "apple_account") type = "apple_account";
  }
  return { type, status: "delivered", payload: f.lines.join("\n"), delivery_data: [...f.lines] };
}

function itemsWire(order: OrderView, withTitle: boolean) {
  return order.items.map((i) => ({
    product_id: i.productId,
    sku_id: i.skuId,
    ...(withTitle ? { title: i.title } : {}),
    quantity: i.quantity,
    unit_price: formatAmount(i.unitPriceCents),
    total_price: formatAmount(i.totalPriceCents),
    price_rule: i.priceRule, // issue 38 extension
  }));
}

function head(order: OrderView, status: string) {
  return {
    ok: true as const,
    order_id: order.id,
    order_no: order.orderNo,
    downstream_order_no: order.downstreamOrderNo,
    status,
    amount: formatAmount(order.amountCents),
    currency: CURRENCY,
    trace_id: order.traceId ?? "",
    // Extension (issue 26.3, decision 0043): only once something was refunded, so an order without after-sales reads as before.
    ...(order.refundedCents > 0n ? { refunded_amount: formatAmount(order.refundedCents) } : {}),
  };
}

/**
 * Create response (D19). P: always processing, error_message null, items
 * with title, no fulfillment (P does not wait for delivery). U: the current
 * status, fulfillment when delivered, no error_message.
 */
export function orderCreatedWire(profile: WireProfile, order: OrderView) {
  if (profile === "P") return { ...head(order, "processing"), error_message: null, items: itemsWire(order, true) };
  return orderReadWire("U", order);
}

/** Read response (D20): P items omit title and carry error_message; U items keep title. */
export function orderReadWire(profile: WireProfile, order: OrderView) {
  const status = publicStatus(order.status);
  const fulfillment = order.fulfillment ? { fulfillment: fulfillmentWire(profile, order.fulfillment) } : {};
  if (profile === "P") {
    return { ...head(order, status), error_message: order.errorMessage ?? null, items: itemsWire(order, false), ...fulfillment };
  }
  return { ...head(order, status), items: itemsWire(order, true), ...fulfillment };
}

/** Profile U callback payload, kind order.updated (spec 6). */
export function orderCallbackWire(order: OrderView, now = new Date()) {
  const status = publicStatus(order.status);
  return {
    event: "order.updated",
    ok: true,
    order_id: order.id,
    order_no: order.orderNo,
    downstream_order_no: order.downstreamOrderNo,
    status,
    amount: formatAmount(order.amountCents),
    currency: CURRENCY,
    ...(order.refundedCents > 0n ? { refunded_amount: formatAmount(order.refundedCents) } : {}),
    timestamp: Math.floor(now.getTime() / 1000),
    ...(order.fulfillment ? { fulfillment: fulfillmentWire("U", order.fulfillment) } : {}),
  };
}
