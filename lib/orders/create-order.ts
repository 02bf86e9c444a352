import { assertCallbackUrlAllowed } from "../callbacks/address-policy";
import { queueOrderCallback } from "../callbacks/queue-callback";
import { db } from "../db/client";
import { inTx, onPool } from "../db/sql-rows";
import { AppError, appError } from "../errors";
import { loadSkuSources } from "../upstream/load-sku-sources";
import { startUpstreamPurchase } from "../upstream/queue-purchase";
import { compareWithStoredOrder } from "./compare-with-stored-order";
import { readOrderContext, type OrderContext } from "./order-context";
import { orderForm } from "./order-form";
import { newOrderNo } from "./order-number";
import type { CreateOrderArgs, CreateOrderResult, OrderProfile } from "./order-types";
import { notePicked, orderViewOf, placeOrder, placeOrderView, type PlaceOrderRow } from "./place-order";
import { placeOrderGrouped } from "./place-order-batch";
import { digestOf, rawDigestOf } from "./request-digest";

/**
 * Creates a purchase order (spec 4.5, section 3).
 *
 * Idempotency first (D18): one read fetches the stored order for
 * (credential, downstream_order_no), the SKU with its product and the points
 * switch; a stored order with the same digest is returned read-only, another
 * digest is 409. Then SKU and product (D32), points switch (D24), form (4.5,
 * D33) and callback URL (D29) are checked here, and the whole write is ONE
 * statement, place_order (see place-order.ts and
 * docs/decisions/0009-order-hot-path.md): order and item, card keys (auto) or
 * stock, fulfillment, debit and ledger row. On the pool (lib/db/sql-rows.ts)
 * that statement is its own transaction and one round trip, so an order costs the rate-limit count,
 * this read and that write; reads made at the same moment go in one statement
 * (decision 0099), and orders that arrive while others are being
 * written go together in one statement and one commit (place-order-batch.ts,
 * issue 28.1). The unique index (credential,
 * downstream_order_no) is the last line of defence: a concurrent duplicate
 * waits for the first, inserts nothing, and is compared with it here.
 *
 * Two kinds of order must also write app-made rows in the same transaction,
 * so they run the same place_order call inside one Prisma transaction
 * (slower, only these): a Profile U order with a callback_url delivered here
 * stores its sealed Callback and enqueues its job (D26, D28), and an
 * `upstream` order queues its purchase (issue 4).
 * A request that fails leaves no record.
 */
export async function createOrder(args: CreateOrderArgs): Promise<CreateOrderResult> {
  const { credential, profile, dialect = "svc", input, streamAbove } = args;
  const key = { credentialId: credential.id, downstreamOrderNo: input.downstreamOrderNo, skuId: input.skuId };
  const ctx = await readOrderContext(key);
  if (ctx.existing) return compareWithStoredOrder(args, { sku: ctx.sku, existing: ctx.existing });

  const sku = sellableSku(ctx, profile);
  const form = orderForm({ profile, product: sku, input });
  const callbackUrl = profile === "U" ? (input.callbackUrl ?? null) : null;
  if (callbackUrl) await assertCallbackUrlAllowed(callbackUrl);

  // Issue 26.1 (decision 0042): our keys first when they are a source; an
  // upstream source takes the order when there are none (or keys are no source).
  const auto = sku.takesKeys;
  const upstream = sku.buysUpstream;
  const row: Omit<PlaceOrderRow, "orderNo"> = {
    credentialId: credential.id,
    userId: credential.userId,
    profile,
    downstreamOrderNo: input.downstreamOrderNo,
    requestDigest: digestOf({ profile, dialect, input, form }),
    requestRawDigest: rawDigestOf({ profile, dialect, input }),
    traceId: input.traceId ?? null,
    callbackUrl,
    manualFormData: form,
    skuId: sku.skuId,
    productId: sku.productId,
    title: sku.title,
    quantity: input.quantity,
    auto,
    deliveryFormat: sku.deliveryFormat,
    maxTotalCents: input.maxTotalCents ?? null,
  };
  for (let attempt = 1; ; attempt++) {
    const orderNo = newOrderNo();
    const place = async (keys: boolean) => {
      const placing = { ...row, auto: keys, orderNo };
      // Rows the app writes with the order (a U callback, an upstream purchase, the dialect its callbacks
      // speak, decision 0090) need a transaction of ours.
      const peerCallbacks = callbackUrl !== null && dialect !== "svc";
      const withAppRows = (callbackUrl && keys) || (!keys && upstream) || peerCallbacks;
      if (!withAppRows && keys && input.quantity > (streamAbove ?? Infinity)) {
        // Issue 40.3: a large order goes alone and brings back no keys; its answer reads them in batches.
        const placed = notePicked(sku.skuId, await placeOrder(onPool, placing, { withoutKeys: true }));
        return placed && orderViewOf(placing, placed, true);
      }
      if (!withAppRows) {
        const placed = await placeOrderGrouped(placing);
        return placed && orderViewOf(placing, placed);
      }
      // Reads first, outside the transaction: it holds a pooled connection only for its writes (queue-purchase.ts).
      const sources = keys ? null : await loadSkuSources(sku.skuId);
      return db().$transaction(async (tx) => {
        const view = await placeOrderView(inTx(tx), placing);
        if (view && peerCallbacks) await tx.order.update({ where: { id: view.id }, data: { wireDialect: dialect } });
        // D26/D28: delivered inside the create → the U callback is stored (and its job queued) with it.
        if (view && keys) await queueOrderCallback(tx, { orderId: view.id, view });
        // Issue 4: the purchase task of an `upstream` order is stored and its job queued with the order.
        if (view && !keys)
          await startUpstreamPurchase(tx, {
            orderId: view.id,
            quantity: input.quantity,
            unitPriceCents: view.items[0].unitPriceCents,
            sources,
          });
        return view;
      });
    };
    try {
      const order = await place(auto).catch((err: unknown) => {
        // Issue 26.2: out of keys, with an upstream source behind them: that source sells (the failed statement wrote nothing).
        if (auto && upstream && err instanceof AppError && err.code === "insufficient_stock") return place(false);
        throw err;
      });
      if (order) return { order, replayed: false };
      // A concurrent request with the same number committed first: compare with it.
      const again = await readOrderContext(key);
      if (!again.existing) throw new Error("order vanished after an idempotency conflict");
      return compareWithStoredOrder(args, { sku: again.sku, existing: again.existing });
    } catch (err) {
      // Random order numbers can collide (D4); the unique index catches it, we draw again.
      if (attempt < 5 && isOrderNoCollision(err)) continue;
      throw err;
    }
  }
}

/** The SKU if it may be ordered now (D11, D24, D32), else the profile's refusal. */
function sellableSku(ctx: OrderContext, profile: OrderProfile): NonNullable<OrderContext["sku"]> {
  const sku = ctx.sku;
  if (!sku || !sku.skuActive || !sku.skuLive) throw appError("sku_unavailable", "sku is not available");
  if (!sku.productActive || !sku.productLive) {
    throw profile === "U"
      ? appError("product_unavailable", "product is not available")
      : appError("sku_unavailable", "sku is not available");
  }
  if (!ctx.pointsDebitEnabled) {
    throw profile === "P" ? appError("points_disabled", "points debit is disabled") : appError("bad_request", "points payment is disabled");
  }
  return sku;
}

function isOrderNoCollision(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ""} ${JSON.stringify((err as { meta?: unknown })?.meta ?? null)}`;
  return text.includes("Order_orderNo_key");
}
