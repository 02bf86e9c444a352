import { decryptText } from "../crypto/secret-box";
import type { Tx } from "../db/tx";
import { AppError, appError } from "../errors";
import type { DeliveryFormat, Profile } from "../generated/prisma/enums";
import { toLanguageText } from "../protocol/language";
import type { OrderView } from "./order-view";

export interface PlaceOrderRow {
  orderNo: string;
  credentialId: number;
  userId: string;
  profile: Profile;
  downstreamOrderNo: string;
  requestDigest: string;
  /** D18: the digest of the request as sent (lib/orders/request-digest.ts). */
  requestRawDigest: string;
  traceId: string | null;
  callbackUrl: string | null;
  manualFormData: Record<string, unknown>;
  skuId: number;
  productId: number;
  title: unknown;
  quantity: number;
  /** `auto`: card keys are taken and the order is delivered in the same statement. */
  auto: boolean;
  deliveryFormat: DeliveryFormat;
}

export interface PlacedOrder {
  id: number;
  createdAt: Date;
  /**
   * The unit price place_order read inside the order's statement (the buyer's
   * member-level price, else the SKU's; issue 12.4): the item, the amount and
   * the debit were all written with it.
   */
  unitPriceCents: bigint;
  /** The delivered card keys (encrypted), in id order; empty unless `auto`. */
  keys: { id: bigint; ciphertext: Uint8Array }[];
}

/**
 * Writes a new order with everything it takes, through the SQL function
 * place_order (prisma/migrations/*_place_order, latest *_order_level_price):
 * the unit price (read there), order, item, card keys or stock, fulfilment
 * row, debit and ledger row, in ONE statement. Called on
 * db() it is one round trip and its own transaction (autocommit); called on a
 * transaction client it joins that transaction. Returns null when the
 * (credential, downstream_order_no) is already stored (D18: the caller loads
 * and compares). Throws insufficient_stock / insufficient_balance, having
 * written nothing.
 */
export async function placeOrder(client: Tx, o: PlaceOrderRow): Promise<PlacedOrder | null> {
  let rows: { orderId: number; createdAt: Date; unitPriceCents: bigint; keyId: bigint | null; keyCiphertext: Uint8Array | null }[];
  try {
    rows = await client.$queryRaw`
      SELECT * FROM place_order(
        ${o.orderNo}, ${o.credentialId}, ${o.userId}::uuid, ${o.profile}::"Profile", ${o.downstreamOrderNo},
        ${o.requestDigest}, ${o.requestRawDigest}, ${o.traceId}, ${o.callbackUrl}, ${JSON.stringify(o.manualFormData)}::jsonb,
        ${o.skuId}, ${o.productId}, ${JSON.stringify(o.title)}::jsonb, ${o.quantity},
        ${o.auto}, ${o.deliveryFormat}::"DeliveryFormat")`;
  } catch (err) {
    throw refusal(err) ?? err;
  }
  if (rows.length === 0) return null;
  return {
    id: rows[0].orderId,
    createdAt: rows[0].createdAt,
    unitPriceCents: BigInt(rows[0].unitPriceCents),
    keys: rows.flatMap((r) => (r.keyId === null || r.keyCiphertext === null ? [] : [{ id: r.keyId, ciphertext: r.keyCiphertext }])),
  };
}

/**
 * placeOrder, and the order as the caller sees it now (the create response
 * needs the delivered keys in clear); null as placeOrder.
 */
export async function placeOrderView(client: Tx, row: PlaceOrderRow): Promise<OrderView | null> {
  const placed = await placeOrder(client, row);
  if (!placed) return null;
  const { unitPriceCents } = placed;
  const amountCents = unitPriceCents * BigInt(row.quantity);
  return {
    id: placed.id,
    orderNo: row.orderNo,
    profile: row.profile,
    downstreamOrderNo: row.downstreamOrderNo,
    status: row.auto ? "delivered" : "processing",
    amountCents,
    traceId: row.traceId,
    errorMessage: null,
    createdAt: placed.createdAt,
    items: [
      { productId: row.productId, skuId: row.skuId, title: toLanguageText(row.title), quantity: row.quantity, unitPriceCents, totalPriceCents: amountCents },
    ],
    fulfillment: row.auto ? { source: "auto", deliveryFormat: row.deliveryFormat, lines: placed.keys.map((k) => decryptText(k.ciphertext)) } : null,
  };
}

const REFUSALS: Record<string, () => AppError> = {
  insufficient_stock: () => appError("insufficient_stock", "stock too low"),
  insufficient_balance: () => appError("insufficient_balance", "points balance too low"),
};

/** place_order's RAISE (SQLSTATE P0001, message = our code), as the driver adapter reports it. */
function refusal(err: unknown): AppError | null {
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: string; originalMessage?: string } } } })?.meta
    ?.driverAdapterError?.cause;
  if (cause?.originalCode !== "P0001" || !cause.originalMessage) return null;
  return REFUSALS[cause.originalMessage]?.() ?? null;
}
