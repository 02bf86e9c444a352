import type { Tx } from "../db/tx";
import { decryptText, encryptText } from "../crypto/secret-box";
import { appError } from "../errors";
import { deliveredLines } from "../order-read/order-view";

// The delivered lines of an order as after-sales sees them: read, priced,
// and rewritten when a line is replaced.

export interface DeliveredOrder {
  id: number;
  orderNo: string;
  userId: string;
  credentialId: number;
  profile: "U" | "P";
  status: string;
  amountCents: bigint;
  refundedCents: bigint;
  completedAt: Date | null;
  lines: string[];
  /** The product's after-sales window in hours (0 = none). */
  afterSalesHours: number;
  /** Issue 33.4: times one line may be replaced within the window (replace-allowance.ts). */
  afterSalesReplaces: number;
  skuId: number;
  fulfillmentType: string;
  /** Per line: what it cost (see linePrice). */
  linePrices: bigint[];
}

/**
 * Locks the order row (FOR UPDATE: claims, resolutions and refunds of one
 * order run one at a time) and loads its lines. `credentialId` limits it to
 * one key's orders (D20); null when there is no such order.
 */
export async function lockDeliveredOrder(tx: Tx, orderId: number, credentialId?: number): Promise<DeliveredOrder | null> {
  const [row] = await tx.$queryRaw<{ id: number; credentialId: number }[]>`
    SELECT "id", "credentialId" FROM "Order" WHERE "id" = ${orderId} FOR UPDATE`;
  if (!row || (credentialId !== undefined && row.credentialId !== credentialId)) return null;
  const order = await tx.order.findUniqueOrThrow({
    where: { id: orderId },
    include: {
      fulfillment: { select: { payloadCiphertext: true } },
      items: {
        orderBy: { id: "asc" },
        select: {
          skuId: true,
          quantity: true,
          unitPriceCents: true,
          sku: { select: { product: { select: { afterSalesHours: true, afterSalesReplaces: true, fulfillmentType: true } } } },
        },
      },
    },
  });
  const lines = order.fulfillment ? await deliveredLines(tx, order.id, order.fulfillment.payloadCiphertext) : [];
  const first = order.items[0];
  return {
    id: order.id,
    orderNo: order.orderNo,
    userId: order.userId,
    credentialId: order.credentialId,
    profile: order.profile,
    status: order.status,
    amountCents: order.amountCents,
    refundedCents: order.refundedCents,
    completedAt: order.completedAt,
    lines,
    afterSalesHours: first?.sku.product.afterSalesHours ?? 0,
    afterSalesReplaces: first?.sku.product.afterSalesReplaces ?? 0,
    skuId: first?.skuId ?? 0,
    fulfillmentType: first?.sku.product.fulfillmentType ?? "manual",
    linePrices: linePrices(order.amountCents, order.items, lines.length),
  };
}

/**
 * What one line cost: the unit price of the item it belongs to when the
 * lines are the units (one key per unit, items in order); otherwise (a
 * manual delivery of another shape) an equal share of the amount, rounded
 * down. Either way applyRefund caps the sum at the amount paid.
 */
function linePrices(amountCents: bigint, items: { quantity: number; unitPriceCents: bigint }[], lineCount: number): bigint[] {
  const units = items.reduce((n, i) => n + i.quantity, 0);
  if (units === lineCount) return items.flatMap((i) => Array.from({ length: i.quantity }, () => i.unitPriceCents));
  const share = lineCount ? amountCents / BigInt(lineCount) : 0n;
  return Array.from({ length: lineCount }, () => share);
}

export function checkLine(order: DeliveredOrder, line: number): void {
  if (!Number.isSafeInteger(line) || line < 0 || line >= order.lines.length) {
    throw appError("bad_request", `line is out of range: the order has ${order.lines.length} delivered line(s), numbered from 0`);
  }
}

/**
 * A replacement for one line: `text` when the administrator (or the
 * upstream) gave one, else the next available card key of the order's SKU,
 * taken by this order. The order's lines are then stored whole in its
 * Fulfillment (encrypted), the new line at the old one's index, so
 * delivery_data keeps its numbering; the old line stays in the claim.
 */
export async function replaceLine(tx: Tx, order: DeliveredOrder, line: number, text?: string): Promise<void> {
  const replacement = text?.trim() || (await takeCardKey(tx, order));
  if (!replacement) throw appError("insufficient_stock", "no card key of this SKU is in stock: give the replacement line by hand");
  const lines = [...order.lines];
  lines[line] = replacement;
  await tx.fulfillment.update({ where: { orderId: order.id }, data: { payloadCiphertext: encryptText(JSON.stringify(lines)) } });
  order.lines = lines;
}

/** The next available card key of the order's SKU, taken by this order; null when there is none. */
export async function takeCardKey(tx: Tx, order: DeliveredOrder): Promise<string | null> {
  const [key] = await tx.$queryRaw<{ ciphertext: Uint8Array }[]>`
    UPDATE "CardKey" SET "status" = 'delivered', "orderId" = ${order.id}, "deliveredAt" = now()
    WHERE "id" = (SELECT "keyId" FROM "KeyStock" WHERE "skuId" = ${order.skuId} ORDER BY "keyId" LIMIT 1 FOR UPDATE SKIP LOCKED)
      AND "status" = 'available'
    RETURNING "ciphertext"`;
  return key ? decryptText(key.ciphertext) : null;
}
