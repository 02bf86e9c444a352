import { failOrderIn } from "../fulfillment/fail-order";
import { assertWaiting, holdLiveLease, scopedOrder } from "./scoped-order";
import { onceByKey, type KeyedRequest } from "./once-by-key";
import { fulfillerActor, type FulfillerToken } from "./fulfiller-token";

/**
 * Issue 39: a fulfiller gives up on an order it holds the live lease of,
 * through the console's own failure (failOrderIn: refund with its ledger
 * row, stock released, callback, audit row), in one transaction with the
 * lease's release and the Idempotency-Key's answer.
 */
export async function failLeasedOrder(input: { token: FulfillerToken; orderNo: string; reason: string; ip: string | null } & KeyedRequest) {
  const { token } = input;
  return onceByKey(token, input, async (tx) => {
    const order = await scopedOrder(tx, token, input.orderNo);
    assertWaiting(order);
    await holdLiveLease(tx, token, order);
    const done = await failOrderIn(tx, { orderNo: order.orderNo, reason: input.reason, actor: fulfillerActor(token, input.ip) });
    await tx.fulfillerLease.delete({ where: { orderId: order.id } });
    return { order_no: done.orderNo, status: done.status, reason: done.reason };
  });
}
