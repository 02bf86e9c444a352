import { db } from "../db/client";
import { appError } from "../errors";
import { readManualFormSchema } from "../forms/form-schema";
import { formForProduct } from "../forms/normalize-form";
import type { CreateOrderInput, CreateOrderResult } from "./create-order";
import type { OrderContext, StoredOrderDigests } from "./order-context";
import { loadOrderView } from "./order-view";
import { requestDigest } from "./request-digest";

/** The D18 digest of a create request, with the form as this profile stores it. */
export function digestOf(profile: "U" | "P", input: CreateOrderInput, form: Record<string, unknown>): string {
  return requestDigest({
    profile,
    skuId: input.skuId,
    quantity: input.quantity,
    traceId: input.traceId ?? null,
    // P: the normalised form; U: the reserved field as sent.
    manualFormData: profile === "P" ? form : (input.manualFormData ?? {}),
    callbackUrl: input.callbackUrl ?? null,
  });
}

/**
 * The digest of the request exactly as sent (the form before normalisation).
 * It needs no product, so an identical retry is recognised whatever happened
 * to the product since (issue 8.7, D18).
 */
export function rawDigestOf(profile: "U" | "P", input: CreateOrderInput): string {
  return requestDigest({
    profile,
    skuId: input.skuId,
    quantity: input.quantity,
    traceId: input.traceId ?? null,
    manualFormData: input.manualFormData ?? {},
    callbackUrl: input.callbackUrl ?? null,
  });
}

/**
 * Same number seen before: the same request → the original order (read-only),
 * else 409 (D18). Decided against what was stored with the order, never
 * against the product as it is today (an administrator or a re-import may
 * have changed its form schema or fulfilment type since, issue 8.7):
 * 1. the request as sent equals the one stored (raw digest): the same request;
 * 2. otherwise the stored D18 digest (normalised form) is compared with this
 *    request normalised by today's form; this only widens 1 to retries that
 *    differ in what normalisation removes (whitespace, "5" vs 5), and serves
 *    orders stored before the raw digest existed.
 */
export async function replayIfSame(
  credentialId: number,
  profile: "U" | "P",
  input: CreateOrderInput,
  ctx: OrderContext,
  existing: StoredOrderDigests,
): Promise<CreateOrderResult> {
  const same = (existing.rawDigest !== null && rawDigestOf(profile, input) === existing.rawDigest) || normalisedDigestOf(profile, input, ctx) === existing.digest;
  if (!same) {
    throw appError("idempotency_conflict", "downstream_order_no was already used with different parameters");
  }
  const order = await loadOrderView(db(), credentialId, existing.id);
  if (!order) throw new Error("order vanished during replay");
  return { order, replayed: true };
}

function normalisedDigestOf(profile: "U" | "P", input: CreateOrderInput, ctx: OrderContext): string | null {
  if (!ctx.sku) return null;
  try {
    const form = profile === "P" ? formForProduct(ctx.sku.fulfillmentType, readManualFormSchema(ctx.sku.manualFormSchema), input.manualFormData ?? undefined) : {};
    return digestOf(profile, input, form);
  } catch {
    return null; // a form today's product refuses: not comparable this way
  }
}
