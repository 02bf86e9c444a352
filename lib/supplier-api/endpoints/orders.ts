import { cancelOrder } from "../../orders/cancel-order";
import { createOrder } from "../../orders/create-order";
import type { CreateOrderArgs } from "../../orders/order-types";
import { getOrder } from "../../orders/get-order";
import { matchStoredOrder } from "../../orders/match-stored-order";
import { ENDPOINTS } from "../../protocol/endpoints";
import { type CreateOrderBodyP, type CreateOrderBodyU } from "../../protocol/order-schemas";
import { orderCreatedWire, orderReadWire } from "../../serializers/order";
import { STREAM_KEYS_ABOVE } from "../../order-read/order-view";
import { orderAnswer } from "../streamed-order";
import { defineEndpoint, parseIdParam, type EndpointContext } from "../define-endpoint";

type CreateCtx = EndpointContext<CreateOrderBodyU, CreateOrderBodyP, undefined, undefined>;

/** Wire body → service arguments; the service never sees wire names. */
function createArgs(ctx: CreateCtx): CreateOrderArgs {
  const b = ctx.body;
  return {
    credential: ctx.credential,
    profile: ctx.profile,
    input: {
      downstreamOrderNo: b.downstream_order_no,
      skuId: b.sku_id,
      quantity: b.quantity,
      traceId: b.trace_id ?? null,
      callbackUrl: ctx.profile === "U" ? ctx.body.callback_url : null,
      manualFormData: b.manual_form_data ?? null,
      maxTotalCents: b.max_total ?? null,
    },
    streamAbove: STREAM_KEYS_ABOVE,
  };
}

/**
 * Section 4.5, D17-D19, D24, D32, D33. A replayed Profile P request (D8) whose
 * body matches a stored order exactly is answered read-only with that order.
 */
export const createOrderEndpoint = defineEndpoint({
  ...ENDPOINTS.createOrder,
  allowReplay: async (ctx) => (await matchStoredOrder(createArgs(ctx))) !== null,
  handler: async (ctx) => {
    if (ctx.replayed) {
      const order = await matchStoredOrder(createArgs(ctx));
      if (order) return orderAnswer(orderCreatedWire(ctx.profile, order), order);
    }
    const { order } = await createOrder(createArgs(ctx));
    return orderAnswer(orderCreatedWire(ctx.profile, order), order);
  },
});

/** Section 4.6, D20: own orders only; anything else is 404 order_not_found; a non-numeric id is 400. */
export const getOrderEndpoint = defineEndpoint({
  ...ENDPOINTS.getOrder,
  handler: async (ctx) => {
    const order = await getOrder({ credentialId: ctx.credential.id, orderId: parseIdParam(ctx.params.id), streamAbove: STREAM_KEYS_ABOVE });
    return orderAnswer(orderReadWire(ctx.profile, order), order);
  },
});

/** Section 4.7, D23: never cancellable; 409 cancel_not_allowed for an own order, else 404. */
export const cancelOrderEndpoint = defineEndpoint({
  ...ENDPOINTS.cancelOrder,
  handler: async (ctx) => cancelOrder({ credentialId: ctx.credential.id, orderId: parseIdParam(ctx.params.id) }),
});
