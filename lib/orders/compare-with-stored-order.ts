import { db } from "../db/client";
import { appError } from "../errors";
import type { OrderContext, StoredOrderDigests } from "./order-context";
import { orderForm } from "./order-form";
import type { WireDialect } from "../protocol/profiles";
import type { CreateOrderArgs, CreateOrderInput, CreateOrderResult, OrderProfile } from "./order-types";
import { loadOrderView } from "../order-read/order-view";
import { digestOf, rawDigestOf } from "./request-digest";

/**
 * Same downstream_order_no seen before: the same request → the original
 * order (read-only), else 409 (D18). Decided against what was stored with the
 * order, never against the product as it is today (an administrator or a
 * re-import may have changed its form schema or fulfillment type since, issue 8.7):
 * 1. the request as sent equals the one stored (raw digest): the same request;
 * 2. otherwise the stored D18 digest (normalised form) is compared with this
 *    request normalised by today's form; this only widens 1 to retries that
 *    differ in what normalisation removes (whitespace, "5" vs 5), and serves
 *    orders stored before the raw digest existed.
 */
export async function compareWithStoredOrder(
  { credential, profile, dialect, input, streamAbove }: CreateOrderArgs,
  /** What readOrderContext found: the stored order, and the SKU as it is today (for rule 2). */
  { sku, existing: stored }: { sku: OrderContext["sku"]; existing: StoredOrderDigests },
): Promise<CreateOrderResult> {
  const sameAsSent = stored.rawDigest !== null && rawDigestOf({ profile, dialect, input }) === stored.rawDigest;
  if (!sameAsSent && normalisedDigestOf({ profile, dialect, input, sku }) !== stored.digest) {
    throw appError("idempotency_conflict", "downstream_order_no was already used with different parameters");
  }
  const order = await loadOrderView(db(), credential.id, stored.id, { streamAbove });
  if (!order) throw new Error("order vanished during replay");
  return { order, replayed: true };
}

function normalisedDigestOf({
  profile,
  dialect,
  input,
  sku,
}: {
  profile: OrderProfile;
  dialect?: WireDialect;
  input: CreateOrderInput;
  sku: OrderContext["sku"];
}): string | null {
  if (!sku) return null;
  try {
    return digestOf({ profile, dialect, input, form: orderForm({ profile, product: sku, input }) });
  } catch {
    return null; // a form today's product refuses: not comparable this way
  }
}
