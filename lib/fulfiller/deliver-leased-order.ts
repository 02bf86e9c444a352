import { deliverOrderIn } from "../fulfillment/deliver-order";
import { onLeasedOrder, type OrderCall } from "./scoped-order";
import { fulfillerActor } from "./fulfiller-token";

/**
 * Issue 39: a fulfiller delivers an order it holds the live lease of,
 * through the console's own delivery (deliverOrderIn: the same line rules,
 * fulfilment row, callback, audit row), in one transaction with the lease's
 * release and the Idempotency-Key's answer.
 */
export async function deliverLeasedOrder(input: OrderCall & { lines: string[]; ip: string | null }) {
  return onLeasedOrder(input, async (tx, order) => {
    // The console's text: one line per entry (each line was checked to hold no line break).
    const payloadText = input.lines.join("\n");
    const done = await deliverOrderIn(tx, { orderNo: order.orderNo, payloadText, actor: fulfillerActor(input.token, input.ip) });
    return { order_no: done.orderNo, status: done.status, lines: done.lines };
  });
}
