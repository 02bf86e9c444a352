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
  /** Issue 26.3: partial refunds so far (after-sales and administrators' refunds). */
  refundedCents: bigint;
  traceId: string | null;
  errorMessage: string | null;
  createdAt: Date;
  /** When it became final (delivered or failed); null while processing. */
  completedAt: Date | null;
  items: OrderItemView[];
  /** Present only when a delivery result is stored (spec 2.5). */
  fulfillment: FulfillmentView | null;
}

/** Issue 38: which rule set an item's unit price. */
export type PriceRule = "list" | "level" | "contract" | "tier";

export interface OrderItemView {
  productId: number;
  skuId: number;
  title: LanguageText;
  quantity: number;
  unitPriceCents: bigint;
  totalPriceCents: bigint;
  priceRule: PriceRule;
}

export interface FulfillmentView {
  source: FulfillmentSource;
  deliveryFormat: DeliveryFormat;
  /** The delivered lines (card keys, or lines of a manual delivery), decrypted; empty when `streamed`. */
  lines: string[];
  /**
   * Issue 40.3: set only for a caller that asked to stream (`streamAbove`) and an `auto` delivery of more
   * keys than that: `lines` is then empty and the answer reads the keys in batches as it is written
   * (order-key-batches.ts, lib/serializers/order-stream.ts).
   */
  streamed?: true;
}

/** Issue 40.3: an auto delivery of more keys than this is streamed to the supplier API's client (decision 0095). */
export const STREAM_KEYS_ABOVE = 1000;

/** Decrypts Fulfillment.payloadCiphertext (a JSON array of lines). */
export function openPayload(ciphertext: Uint8Array): string[] {
  const lines = JSON.parse(decryptText(ciphertext)) as unknown;
  return Array.isArray(lines) ? lines.map(String) : [];
}

/**
 * The delivered lines of an order. A manual or upstream delivery stores them
 * in Fulfillment.payloadCiphertext; an `auto` delivery stores none (NULL):
 * its lines are the card keys the order took (SQL order_keys: the CardKey
 * rows with its id, found through its runs of key ids), in id order
 * (place_order writes the order in one statement and never sees the keys in
 * clear; a delivered order is final, so the rows never change).
 */
export async function deliveredLines(tx: Tx, orderId: number, payloadCiphertext: Uint8Array | null): Promise<string[]> {
  if (payloadCiphertext !== null) return openPayload(payloadCiphertext);
  const keys = await tx.$queryRaw<{ ciphertext: Uint8Array }[]>`SELECT "ciphertext" FROM order_keys(${orderId}) ORDER BY "id"`;
  return keys.map((k) => decryptText(k.ciphertext));
}

/**
 * Loads one order of one credential, or null (another credential's order is "not there", D20).
 * `streamAbove`: an auto delivery of more keys than that is left `streamed` (not read here).
 */
export async function loadOrderView(
  tx: Tx,
  credentialId: number,
  orderId: number,
  { streamAbove = Infinity }: { streamAbove?: number } = {},
): Promise<OrderView | null> {
  const order = await tx.order.findFirst({
    where: { id: orderId, credentialId },
    include: { items: { orderBy: { id: "asc" } }, fulfillment: true },
  });
  if (!order) return null;
  const f = order.fulfillment;
  // An auto order took exactly its quantity of keys.
  const streamed = f !== null && f.payloadCiphertext === null && order.items.reduce((n, i) => n + i.quantity, 0) > streamAbove;
  return {
    id: order.id,
    orderNo: order.orderNo,
    profile: order.profile,
    downstreamOrderNo: order.downstreamOrderNo,
    status: order.status,
    amountCents: order.amountCents,
    refundedCents: order.refundedCents,
    traceId: order.traceId,
    errorMessage: order.errorMessage,
    createdAt: order.createdAt,
    completedAt: order.completedAt,
    items: order.items.map((i) => ({
      productId: i.productId,
      skuId: i.skuId,
      title: toLanguageText(i.title),
      quantity: i.quantity,
      unitPriceCents: i.unitPriceCents,
      totalPriceCents: i.totalPriceCents,
      priceRule: i.priceRule as PriceRule,
    })),
    fulfillment: !f
      ? null
      : streamed
        ? { source: f.source, deliveryFormat: f.deliveryFormat, lines: [], streamed: true }
        : { source: f.source, deliveryFormat: f.deliveryFormat, lines: await deliveredLines(tx, order.id, f.payloadCiphertext) },
  };
}
