import { decryptText } from "../crypto/secret-box";
import type { Tx } from "../db/tx";
import type { DeliveryFormat, FulfillmentSource, OrderStatus, Profile } from "../generated/prisma/enums";
import { toLanguageText, type LanguageText } from "../protocol/language";

/** An order as services hand it to the edge; serializers turn it into wire JSON per profile. */
export interface OrderView {
  id: number;
  orderNo: string;
  profile: Profile;
  downstreamOrderNo: string;
  status: OrderStatus;
  amountCents: bigint;
  traceId: string | null;
  errorMessage: string | null;
  createdAt: Date;
  items: OrderItemView[];
  /** Present only when a delivery result is stored (spec 2.5). */
  fulfillment: FulfillmentView | null;
}

export interface OrderItemView {
  productId: number;
  skuId: number;
  title: LanguageText;
  quantity: number;
  unitPriceCents: bigint;
  totalPriceCents: bigint;
}

export interface FulfillmentView {
  source: FulfillmentSource;
  deliveryFormat: DeliveryFormat;
  /** The delivered lines (card keys, or lines of a manual delivery), decrypted. */
  lines: string[];
}

/** Decrypts Fulfillment.payloadCiphertext (a JSON array of lines). */
export function openPayload(ciphertext: Uint8Array): string[] {
  const lines = JSON.parse(decryptText(ciphertext)) as unknown;
  return Array.isArray(lines) ? lines.map(String) : [];
}

/** Loads one order of one credential, or null (another credential's order is "not there", D20). */
export async function loadOrderView(tx: Tx, credentialId: number, orderId: number): Promise<OrderView | null> {
  const order = await tx.order.findFirst({
    where: { id: orderId, credentialId },
    include: { items: { orderBy: { id: "asc" } }, fulfillment: true },
  });
  if (!order) return null;
  return {
    id: order.id,
    orderNo: order.orderNo,
    profile: order.profile,
    downstreamOrderNo: order.downstreamOrderNo,
    status: order.status,
    amountCents: order.amountCents,
    traceId: order.traceId,
    errorMessage: order.errorMessage,
    createdAt: order.createdAt,
    items: order.items.map((i) => ({
      productId: i.productId,
      skuId: i.skuId,
      title: toLanguageText(i.title),
      quantity: i.quantity,
      unitPriceCents: i.unitPriceCents,
      totalPriceCents: i.totalPriceCents,
    })),
    fulfillment: order.fulfillment
      ? { source: order.fulfillment.source, deliveryFormat: order.fulfillment.deliveryFormat, lines: openPayload(order.fulfillment.payloadCiphertext) }
      : null,
  };
}
