import { failOrderIn } from "../fulfillment/fail-order";
import { onLeasedOrder, type OrderCall } from "./scoped-order";
import { fulfillerActor } from "./fulfiller-token";

/**
 * Issue 39: a fulfiller gives up on an order it holds the live lease of,
 * through the console's own failure (failOrderIn: refund with its ledger
 * row, stock released, callback, audit row), in one transaction with the
 * lease's release and the Idempotency-Key's answer.
 */
export async function failLeasedOrder(input: OrderCall & { reason: string; ip: string | null }) {
  return onLeasedOrder(input, async (tx, order) => {
    const done = await failOrderIn(tx, { orderNo: order.orderNo, reason: input.reason, actor: fulfillerActor(input.token, input.ip) });
    return { order_no: done.orderNo, status: done.status, reason: done.reason };
  });
}
