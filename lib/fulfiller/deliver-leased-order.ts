import { deliverOrderIn } from "../fulfillment/deliver-order";
import { assertWaiting, holdLiveLease, scopedOrder } from "./scoped-order";
import { onceByKey, type KeyedRequest } from "./once-by-key";
import { fulfillerActor, type FulfillerToken } from "./fulfiller-token";

/**
 * Issue 39: a fulfiller delivers an order it holds the live lease of,
 * through the console's own delivery (deliverOrderIn: the same line rules,
 * fulfilment row, callback, audit row), in one transaction with the lease's
 * release and the Idempotency-Key's answer.
 */
export async function deliverLeasedOrder(
  input: { token: FulfillerToken; orderNo: string; lines: string[]; ip: string | null } & KeyedRequest,
) {
  const { token } = input;
  return onceByKey(token, input, async (tx) => {
    const order = await scopedOrder(tx, token, input.orderNo);
    assertWaiting(order);
    await holdLiveLease(tx, token, order);
    // The console's text: one line per entry (each line was checked to hold no line break).
    const done = await deliverOrderIn(tx, {
      orderNo: order.orderNo,
      payloadText: input.lines.join("\n"),
      actor: fulfillerActor(token, input.ip),
    });
    await tx.fulfillerLease.delete({ where: { orderId: order.id } });
    return { order_no: done.orderNo, status: done.status, lines: done.lines };
  });
}
