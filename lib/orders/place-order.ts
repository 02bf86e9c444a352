import { decryptText } from "../crypto/secret-box";
import { sqlError, type SqlRows } from "../db/sql-rows";
import { AppError, appError } from "../errors";
import type { DeliveryFormat, Profile } from "../generated/prisma/enums";
import { toLanguageText } from "../protocol/language";
import type { OrderView, PriceRule } from "../order-read/order-view";

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
  /** Issue 28.1: place_order's first pick looks above this key id (pickAfter); "0" searches from the first. */
  pickAfter?: string;
  /** Issue 38: refuse (max_total_exceeded) when the total at the price read in the statement would be above it; null = no cap. */
  maxTotalCents?: bigint | null;
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
  /** Issue 38: the rule that set it (list, level, contract, tier). */
  priceRule: PriceRule;
  /** The delivered card keys (encrypted), in id order; empty unless `auto`, and empty when placed `withoutKeys`. */
  keys: { id: bigint; ciphertext: Uint8Array }[];
  /** The highest delivered key id (the pick hint), null when no key was taken. */
  lastKeyId: bigint | null;
}

/**
 * Writes a new order with everything it takes, through the SQL function
 * place_order (prisma/migrations/*_place_order, latest *_order_level_price):
 * the unit price (read there), order, item, card keys or stock, fulfillment
 * row, debit and ledger row, in ONE statement. Run `onPool` (sql-rows.ts)
 * it is one round trip and its own transaction (autocommit); run `inTx` it
 * joins that Prisma transaction. Returns null when the
 * (credential, downstream_order_no) is already stored (D18: the caller loads
 * and compares). Throws insufficient_stock / insufficient_balance, having
 * written nothing.
 */
export async function placeOrder(run: SqlRows, o: PlaceOrderRow, { withoutKeys = false } = {}): Promise<PlacedOrder | null> {
  let rows: Record<string, unknown>[];
  try {
    rows = await run(
      withoutKeys ? PLACE_ORDER_NO_KEYS_SQL : PLACE_ORDER_SQL,
      [
        o.orderNo,
        o.credentialId,
        o.userId,
        o.profile,
        o.downstreamOrderNo,
        o.requestDigest,
        o.requestRawDigest,
        o.traceId,
        o.callbackUrl,
        JSON.stringify(o.manualFormData),
        o.skuId,
        o.productId,
        JSON.stringify(o.title),
        o.quantity,
        o.auto,
        o.deliveryFormat,
        o.pickAfter ?? pickAfter(o.skuId),
        true,
        o.maxTotalCents == null ? null : String(o.maxTotalCents),
      ],
      withoutKeys ? "place_order_no_keys" : "place_order",
    );
  } catch (err) {
    throw refusal(err) ?? err;
  }
  return notePicked(o.skuId, placedFromRows(rows));
}

/**
 * Issue 28.1: the highest card key id this process saw delivered, per SKU.
 * Keys are imported with rising ids and taken lowest first, so the keys
 * below it are (nearly all) delivered; their entries stay in KeyStock's index
 * until VACUUM, and starting the pick above them skips walking them.
 * Only a hint: place_order searches from the first key when the keys above
 * it run short (a key freed by a rolled-back order is sold then).
 */
const pickHints = new Map<number, bigint>();
const MAX_HINTS = 100_000;

export function pickAfter(skuId: number): string {
  return String(pickHints.get(skuId) ?? 0n);
}

export function notePicked(skuId: number, placed: PlacedOrder | null): PlacedOrder | null {
  const last = placed?.lastKeyId;
  if (last != null && last > (pickHints.get(skuId) ?? 0n)) {
    if (pickHints.size >= MAX_HINTS) pickHints.clear();
    pickHints.set(skuId, last);
  }
  return placed;
}

/** place_order's rows as a PlacedOrder; null when there are none (the order was already stored, D18). */
export function placedFromRows(rows: Record<string, unknown>[]): PlacedOrder | null {
  if (rows.length === 0) return null;
  const lastKeyId = rows.at(-1)!.keyId;
  return {
    id: Number(rows[0].orderId),
    createdAt: rows[0].createdAt as Date,
    unitPriceCents: BigInt(rows[0].unitPriceCents as string | bigint),
    priceRule: rows[0].priceRule as PriceRule,
    keys: rows.flatMap((r) =>
      r.keyId == null || r.keyCiphertext == null
        ? []
        : [{ id: BigInt(r.keyId as string | bigint), ciphertext: r.keyCiphertext as Uint8Array }],
    ),
    lastKeyId: lastKeyId == null ? null : BigInt(lastKeyId as string | bigint),
  };
}

// createdAt as timestamptz: both drivers then read the same instant (the
// plain driver reads a bare timestamp in the process's time zone).
const PLACE_ORDER_CALL = `place_order(
    $1::text, $2::int, $3::uuid, $4::"Profile", $5::text,
    $6::text, $7::text, $8::text, $9::text, $10::jsonb,
    $11::int, $12::int, $13::jsonb, $14::int,
    $15::boolean, $16::"DeliveryFormat", $17::bigint, $18::boolean, $19::bigint)`;
const PLACE_ORDER_SQL = `
  SELECT "orderId", "createdAt" AT TIME ZONE 'UTC' AS "createdAt", "unitPriceCents", "keyId", "keyCiphertext", "priceRule"
  FROM ${PLACE_ORDER_CALL}`;
// Issue 40.3: a large order's keys are not sent back (its answer reads them in batches, order-key-batches.ts): one row, the last key id.
const PLACE_ORDER_NO_KEYS_SQL = `
  SELECT "orderId", "createdAt" AT TIME ZONE 'UTC' AS "createdAt", "unitPriceCents", max("keyId") AS "keyId", "priceRule"
  FROM ${PLACE_ORDER_CALL}
  GROUP BY "orderId", "createdAt", "unitPriceCents", "priceRule"`;

/**
 * placeOrder, and the order as the caller sees it now (the create response
 * needs the delivered keys in clear); null as placeOrder.
 */
export async function placeOrderView(run: SqlRows, row: PlaceOrderRow): Promise<OrderView | null> {
  const placed = await placeOrder(run, row);
  return placed && orderViewOf(row, placed);
}

/** The order as the caller sees it, from what it asked and what place_order wrote. */
export function orderViewOf(row: PlaceOrderRow, placed: PlacedOrder, streamed = false): OrderView {
  const { unitPriceCents } = placed;
  const amountCents = unitPriceCents * BigInt(row.quantity);
  return {
    id: placed.id,
    orderNo: row.orderNo,
    profile: row.profile,
    downstreamOrderNo: row.downstreamOrderNo,
    status: row.auto ? "delivered" : "processing",
    amountCents,
    refundedCents: 0n,
    traceId: row.traceId,
    errorMessage: null,
    createdAt: placed.createdAt,
    completedAt: row.auto ? placed.createdAt : null,
    items: [
      {
        productId: row.productId,
        skuId: row.skuId,
        title: toLanguageText(row.title),
        quantity: row.quantity,
        unitPriceCents,
        totalPriceCents: amountCents,
        priceRule: placed.priceRule,
      },
    ],
    fulfillment: row.auto
      ? streamed
        ? { source: "auto", deliveryFormat: row.deliveryFormat, lines: [], streamed: true }
        : { source: "auto", deliveryFormat: row.deliveryFormat, lines: placed.keys.map((k) => decryptText(k.ciphertext)) }
      : null,
  };
}

const REFUSALS: Record<string, () => AppError> = {
  insufficient_stock: () => appError("insufficient_stock", "stock too low"),
  insufficient_balance: () => appError("insufficient_balance", "points balance too low"),
  max_total_exceeded: () => appError("max_total_exceeded", "the order's total would exceed max_total"),
};

/** place_order's RAISE (SQLSTATE P0001, message = our code). */
export function refusal(err: unknown): AppError | null {
  const { code, message } = sqlError(err);
  if (code !== "P0001" || !message) return null;
  return Object.hasOwn(REFUSALS, message) ? REFUSALS[message]() : null;
}
