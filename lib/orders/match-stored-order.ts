import { onPool } from "../db/sql-rows";
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
export async function matchStoredOrder({ credential, profile, dialect, input, streamAbove }: CreateOrderArgs): Promise<OrderView | null> {
  const ctx = await readOrderContext(onPool, {
    credentialId: credential.id,
    downstreamOrderNo: input.downstreamOrderNo,
    skuId: input.skuId,
  });
  if (!ctx.existing) return null;
  try {
    return (
      await compareWithStoredOrder({
        credentialId: credential.id,
        profile,
        dialect,
        input,
        sku: ctx.sku,
        stored: ctx.existing,
        streamAbove,
      })
    ).order;
  } catch {
    return null;
  }
}
