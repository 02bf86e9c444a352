import { db } from "../db/client";
import { AppError } from "../errors";
import { readManualFormSchema } from "../forms/form-schema";
import { formForProduct } from "../forms/normalize-form";
import type { CreateOrderInput, CreateOrderResult } from "./create-order";
import type { OrderContext } from "./order-context";
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

/** Same number seen before: same digest → the original order (read-only), else 409 (D18). */
export async function replayIfSame(
  credentialId: number,
  profile: "U" | "P",
  input: CreateOrderInput,
  ctx: OrderContext,
  existing: { id: number; digest: string },
): Promise<CreateOrderResult> {
  let digest: string | null = null;
  if (ctx.sku) {
    try {
      const form = profile === "P" ? formForProduct(ctx.sku.fulfillmentType, readManualFormSchema(ctx.sku.manualFormSchema), input.manualFormData ?? undefined) : {};
      digest = digestOf(profile, input, form);
    } catch {
      // A form the stored order could not have had: different parameters.
    }
  }
  if (digest !== existing.digest) {
    throw new AppError("idempotency_conflict", 409, "downstream_order_no was already used with different parameters");
  }
  const order = await loadOrderView(db(), credentialId, existing.id);
  if (!order) throw new Error("order vanished during replay");
  return { order, replayed: true };
}
