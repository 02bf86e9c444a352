import { assertCallbackUrlAllowed } from "../callbacks/address-policy";
import { queueOrderCallback } from "../callbacks/queue-callback";
import { db } from "../db/client";
import { AppError, badRequest } from "../errors";
import { readManualFormSchema } from "../forms/form-schema";
import { formForProduct } from "../forms/normalize-form";
import { changeBalanceAndCommit } from "../points/change-balance";
import { toLanguageText } from "../protocol/language";
import { autoFulfillment } from "./auto-fulfillment";
import { newOrderNo } from "./order-number";
import type { OrderView } from "./order-view";
import { readOrderContext } from "./order-context";
import { digestOf, replayIfSame } from "./replay-if-same";

export interface CreateOrderInput {
  downstreamOrderNo: string;
  skuId: number;
  quantity: number;
  traceId?: string | null;
  /** Profile U only (validated here, D29). */
  callbackUrl?: string | null;
  manualFormData?: Record<string, unknown> | null;
}

export interface CreateOrderArgs {
  credential: { id: number; userId: string };
  profile: "U" | "P";
  input: CreateOrderInput;
}

/** `replayed`: the request repeated an earlier one (D18) and got the original order, read-only. */
export interface CreateOrderResult {
  order: OrderView;
  replayed: boolean;
}

/**
 * Creates a purchase order (spec 4.5, section 3).
 *
 * Idempotency first (D18): one read fetches the stored order for
 * (credential, downstream_order_no), the SKU with its product and the points
 * switch; a stored order with the same digest is returned read-only, another
 * digest is 409. Then SKU and product (D32), points switch (D24), form (4.5,
 * D33), callback URL (D29), and ONE transaction of three round trips:
 *  1. the order and its item, inserted ON CONFLICT DO NOTHING on the
 *     idempotency index (the database is the last line of defence: a
 *     concurrent duplicate waits for the first and then inserts nothing, so
 *     duplicates make one order and one debit), plus the card keys of an
 *     `auto` order, taken with FOR UPDATE SKIP LOCKED;
 *  2. the stock number of a manual/upstream SKU (guarded), or the Profile U
 *     callback of an order delivered here (D26, D28);
 *  3. fulfilment row, debit with its ledger row, and COMMIT in one message:
 *     the debit row-locks the buyer until commit, so nothing may follow it
 *     (changeBalanceAndCommit). Target: 400 auto orders/s for one buyer.
 * A request that fails leaves no record (the transaction rolls back).
 */
export async function createOrder({ credential, profile, input }: CreateOrderArgs): Promise<CreateOrderResult> {
  const ctx = await readOrderContext(db(), credential.id, input.downstreamOrderNo, input.skuId);
  if (ctx.existing) return replayIfSame(credential.id, profile, input, ctx, ctx.existing);

  const sku = ctx.sku;
  if (!sku || !sku.skuActive || !sku.skuLive) throw new AppError("sku_unavailable", 400, "sku is not available");
  if (!sku.productActive || !sku.productLive) {
    throw profile === "U" ? new AppError("product_unavailable", 400, "product is not available") : new AppError("sku_unavailable", 400, "sku is not available");
  }
  if (!ctx.pointsDebitEnabled) {
    throw profile === "P" ? new AppError("points_disabled", 403, "points debit is disabled") : badRequest("points payment is disabled");
  }
  const form = profile === "P" ? formForProduct(sku.fulfillmentType, readManualFormSchema(sku.manualFormSchema), input.manualFormData ?? undefined) : {};
  const digest = digestOf(profile, input, form);
  const callbackUrl = profile === "U" ? (input.callbackUrl ?? null) : null;
  if (callbackUrl) await assertCallbackUrlAllowed(callbackUrl);

  const unitPriceCents = sku.priceCents;
  const amountCents = unitPriceCents * BigInt(input.quantity);
  const auto = sku.fulfillmentType === "auto";
  for (let attempt = 1; ; attempt++) {
    const orderNo = newOrderNo();
    try {
      const created = await db().$transaction(
        async (tx) => {
          // One round trip: the order (ON CONFLICT on the idempotency index), its item and, for `auto`,
          // the card keys it takes (FOR UPDATE SKIP LOCKED through the partial index
          // CardKey_available_pick: parallel orders never get the same key and never wait for each other).
          const pick = auto ? input.quantity : 0;
          const rows = await tx.$queryRaw<{ id: number; createdAt: Date; keyId: bigint | null; ciphertext: Uint8Array | null }[]>`
            WITH o AS (
              INSERT INTO "Order" ("orderNo", "credentialId", "userId", "profile", "downstreamOrderNo", "requestDigest", "traceId",
                                   "callbackUrl", "status", "amountCents", "manualFormData", "updatedAt", "completedAt")
              VALUES (${orderNo}, ${credential.id}, ${credential.userId}::uuid, ${profile}::"Profile", ${input.downstreamOrderNo}, ${digest},
                      ${input.traceId ?? null}, ${callbackUrl}, ${auto ? "delivered" : "processing"}::"OrderStatus", ${amountCents},
                      ${JSON.stringify(form)}::jsonb, now(), ${auto ? new Date() : null})
              ON CONFLICT ("credentialId", "downstreamOrderNo") DO NOTHING
              RETURNING "id", "createdAt"
            ), i AS (
              INSERT INTO "OrderItem" ("orderId", "productId", "skuId", "title", "quantity", "unitPriceCents", "totalPriceCents")
              SELECT o."id", ${sku.productId}, ${sku.skuId}, ${JSON.stringify(sku.title)}::jsonb, ${input.quantity}, ${unitPriceCents}, ${amountCents} FROM o
            ), picked AS MATERIALIZED (
              -- Written so that only CardKey_available_pick ("skuId", "id") WHERE available can
              -- give the order: with "skuId" = <constant> and ORDER BY "id" the planner walks the
              -- primary key instead and steps over every delivered key (the oldest ids), which
              -- cost milliseconds per order once a SKU had sold a few thousand keys.
              SELECT "id" FROM "CardKey"
              WHERE "skuId" = ANY(ARRAY[${sku.skuId}]::int[]) AND "status" = 'available'
              ORDER BY "skuId", "id" LIMIT ${pick}
              FOR UPDATE SKIP LOCKED
            ), k AS (
              UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = o."id", "deliveredAt" = now()
              FROM picked, o WHERE c."id" = picked."id"
              RETURNING c."id", c."ciphertext"
            )
            SELECT o."id", o."createdAt", k."id" AS "keyId", k."ciphertext" FROM o LEFT JOIN k ON true`;
          // A concurrent request with the same number committed first: compare with it after this (empty) transaction.
          if (rows.length === 0) return null;
          const order: OrderView = {
            id: rows[0].id,
            orderNo,
            profile,
            downstreamOrderNo: input.downstreamOrderNo,
            status: auto ? "delivered" : "processing",
            amountCents,
            traceId: input.traceId ?? null,
            errorMessage: null,
            createdAt: rows[0].createdAt,
            items: [{ productId: sku.productId, skuId: sku.skuId, title: toLanguageText(sku.title), quantity: input.quantity, unitPriceCents, totalPriceCents: amountCents }],
            fulfillment: null,
          };
          const lastStatements: string[] = [];
          if (auto) {
            const keys = rows.filter((r) => r.keyId !== null) as { keyId: bigint; ciphertext: Uint8Array }[];
            if (keys.length < input.quantity) throw new AppError("insufficient_stock", 400, "stock too low");
            const delivered = autoFulfillment({ orderId: order.id, deliveryFormat: sku.deliveryFormat, keys });
            order.fulfillment = delivered.view;
            lastStatements.push(delivered.sql);
            // D26/D28: delivered inside the create → the U callback is stored (and its job queued) in this transaction.
            if (callbackUrl) await queueOrderCallback(tx, { orderId: order.id, view: order });
          } else if (sku.stockQuantity !== null) {
            const taken = await tx.$executeRaw`
              UPDATE "Sku" SET "stockQuantity" = "stockQuantity" - ${input.quantity}, "updatedAt" = now()
              WHERE "id" = ${sku.skuId} AND "stockQuantity" >= ${input.quantity}`;
            if (taken !== 1) throw new AppError("insufficient_stock", 400, "stock too low");
          }
          // Last: the fulfilment row, the debit (row-locks the buyer) and COMMIT in one message (see changeBalanceAndCommit).
          await changeBalanceAndCommit(tx, { userId: credential.userId, deltaCents: -amountCents, reason: `order ${orderNo}`, orderId: order.id }, lastStatements);
          return order;
        },
        { maxWait: 10_000, timeout: 60_000 },
      );
      if (created) return { order: created, replayed: false };
      const again = await readOrderContext(db(), credential.id, input.downstreamOrderNo, input.skuId);
      if (!again.existing) throw new Error("order vanished after an idempotency conflict");
      return replayIfSame(credential.id, profile, input, again, again.existing);
    } catch (err) {
      // Random order numbers can collide (D4); the unique index catches it, we draw again.
      if (attempt < 5 && isOrderNoCollision(err)) continue;
      throw err;
    }
  }
}

function isOrderNoCollision(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ""} ${JSON.stringify((err as { meta?: unknown })?.meta ?? null)}`;
  return text.includes("Order_orderNo_key");
}
