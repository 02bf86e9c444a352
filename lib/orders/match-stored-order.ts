import { db } from "../db/client";
import type { CreateOrderArgs } from "./create-order";
import { replayIfSame } from "./replay-if-same";
import { readOrderContext } from "./order-context";
import type { OrderView } from "./order-view";

/**
 * Read-only: the stored order that this create request repeats exactly (same
 * credential, downstream_order_no and digest), or null. Lets the edge answer a
 * replayed Profile P create with the original order (D8 exception) without
 * ever writing.
 */
export async function matchStoredOrder({ credential, profile, input }: CreateOrderArgs): Promise<OrderView | null> {
  const ctx = await readOrderContext(db(), credential.id, input.downstreamOrderNo, input.skuId);
  if (!ctx.existing) return null;
  try {
    return (await replayIfSame(credential.id, profile, input, ctx, ctx.existing)).order;
  } catch {
    return null;
  }
}
