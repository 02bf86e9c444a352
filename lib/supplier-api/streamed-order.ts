import { orderKeyReader } from "../order-read/order-key-batches";
import type { OrderView } from "../order-read/order-view";
import { orderWireChunks } from "../serializers/order-stream";
import { JsonStream } from "./responses";

/**
 * An order endpoint's success body: the wire object as it is, or, when the
 * order's keys were left to be read as the answer is written (a `streamed`
 * fulfillment), the same bytes as a stream.
 */
export function orderAnswer(wire: object, order: OrderView): object {
  if (!order.fulfillment?.streamed || !("fulfillment" in wire)) return wire;
  return new JsonStream(orderWireChunks(wire, orderKeyReader(order.id)));
}
