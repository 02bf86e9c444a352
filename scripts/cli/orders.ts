// Orders fulfilled or failed by hand.
import { z } from "zod";
import { DeliveryPayloadSchema, FailReasonSchema, OrderNoSchema } from "../../lib/fulfillment/manual-input";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { command } from "./command";
export const commands = {
  "order:deliver": command({
    usage: "order:deliver --order-no N --payload TEXT",
    options: { "order-no": { type: "string" }, payload: { type: "string" } },
    input: (v) => v,
    schema: z.object({ "order-no": OrderNoSchema, payload: DeliveryPayloadSchema }),
    run: async (a) => {
      const { deliverOrder } = await import("../../lib/fulfillment/deliver-order");
      const r = await deliverOrder({ orderNo: a["order-no"], payloadText: a.payload, actor });
      return { order_id: r.orderId, order_no: r.orderNo, status: r.status, lines: r.lines, callback_queued: r.callbackQueued };
    },
  }),
  "order:fail": command({
    usage: "order:fail --order-no N --reason R",
    options: { "order-no": { type: "string" }, reason: { type: "string" } },
    input: (v) => v,
    schema: z.object({ "order-no": OrderNoSchema, reason: FailReasonSchema }),
    run: async (a) => {
      const { failOrder } = await import("../../lib/fulfillment/fail-order");
      const r = await failOrder({ orderNo: a["order-no"], reason: a.reason, actor });
      return { order_id: r.orderId, order_no: r.orderNo, status: r.status, reason: r.reason, callback_queued: r.callbackQueued };
    },
  }),
};
