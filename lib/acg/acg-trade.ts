import { db } from "../db/client";
import { createOrder } from "../orders/create-order";
import type { OrderView } from "../order-read/order-view";
import type { AcgCredential } from "./authenticate-acg";
import { findAcgItem } from "./acg-items";
import { refuse } from "./refusal";

// Issue 37.2: ACG-Faka's `trade` (their client: app/Service/Bind/Shared.php
// lines 338-363) through our one order service, charged to the key's buyer,
// delivered in the same answer. Their `request_no` is their own order number
// and they send it again when a trade's answer was lost; their server refuses
// a repeat, we answer it with the original delivery (the same item and
// quantity) and charge nothing again: createOrder's idempotency (D18, the
// unique index on (credential, downstream_order_no)) is the rule, so money
// moves once however many copies arrive at once. The number is stored as
// `acg-<request_no>` so it can never match an order this key placed through
// our own protocol.

export interface AcgTradeInput {
  code: string;
  quantity: number;
  requestNo: string;
}

export const ORDER_NO_PREFIX = "acg-";

export async function acgTrade(credential: AcgCredential, input: AcgTradeInput): Promise<OrderView> {
  const downstreamOrderNo = ORDER_NO_PREFIX + input.requestNo;
  const skuId = Number(input.code);
  const stored = await db().order.findUnique({
    where: { credentialId_downstreamOrderNo: { credentialId: credential.id, downstreamOrderNo } },
    select: { id: true },
  });
  // A new order only for an item this protocol offers; a repeat is compared with what was stored, whatever the item is today.
  if (!stored && !(await findAcgItem(input.code, credential))) throw refuse("item not found (商品不存在)");
  const { order } = await createOrder({
    credential: { id: credential.id, userId: credential.userId },
    profile: "U",
    input: { downstreamOrderNo, skuId, quantity: input.quantity, traceId: null, callbackUrl: null, manualFormData: null },
  });
  return order;
}
