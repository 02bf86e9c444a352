import { compareWithStoredOrder } from "./compare-with-stored-order";
import { readOrderContext } from "./order-context";
import type { CreateOrderArgs } from "./order-types";
import type { OrderView } from "../order-read/order-view";

/**
 * Read-only: the stored order that this create request repeats exactly (same
 * credential, downstream_order_no and digest), or null. Lets the edge answer a
 * replayed Profile P create with the original order (D8 exception) without
 * ever writing.
 */
export async function matchStoredOrder(args: CreateOrderArgs): Promise<OrderView | null> {
  const { credential, input } = args;
  const ctx = await readOrderContext({
    credentialId: credential.id,
    downstreamOrderNo: input.downstreamOrderNo,
    skuId: input.skuId,
  });
  if (!ctx.existing) return null;
  try {
    return (await compareWithStoredOrder(args, { sku: ctx.sku, existing: ctx.existing })).order;
  } catch {
    return null;
  }
}
