import crypto from "node:crypto";
import type { WireDialect } from "../protocol/profiles";
import type { CreateOrderInput, OrderProfile } from "./order-types";

/** JSON with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export interface DigestInput {
  profile: "U" | "P";
  skuId: number;
  quantity: number;
  traceId?: string | null;
  /** Profile P: the normalised form; Profile U: the form as sent (reserved), or {}. */
  manualFormData?: Record<string, unknown> | null;
  callbackUrl?: string | null;
}

/**
 * The idempotency digest of a create-order request (D18): SHA-256 over the
 * canonical JSON of sku_id, quantity, trace_id or null, the normalised
 * manual_form_data or {}, and in Profile U callback_url or null. Stored with
 * the order; a repeat with the same downstream_order_no must match it.
 */
export function requestDigest(input: DigestInput): string {
  const fields: Record<string, unknown> = {
    sku_id: input.skuId,
    quantity: input.quantity,
    trace_id: input.traceId ?? null,
    manual_form_data: input.manualFormData ?? {},
  };
  if (input.profile === "U") fields.callback_url = input.callbackUrl ?? null;
  return crypto.createHash("sha256").update(canonicalJson(fields), "utf8").digest("hex");
}

/**
 * The digest of a create: `form` is the form as this profile stores it
 * (lib/orders/order-form.ts) for the D18 digest, or undefined for the raw one.
 * What makes two creates "the same request", decision 0090: Dujiao-Next's buyer
 * retries one purchase with a new trace id, and its callback URL may change
 * between attempts (an operator's setting), so its repeat is the same sku,
 * quantity and form.
 */
function digestWith(profile: OrderProfile, dialect: WireDialect | undefined, input: CreateOrderInput, form?: Record<string, unknown>) {
  const theirs = dialect === "dujiao_next";
  return requestDigest({
    profile,
    skuId: input.skuId,
    quantity: input.quantity,
    traceId: theirs ? null : (input.traceId ?? null),
    // P: the normalised form; U: the reserved field as sent.
    manualFormData: form && profile === "P" ? form : (input.manualFormData ?? {}),
    callbackUrl: theirs ? null : (input.callbackUrl ?? null),
  });
}

/** The D18 digest of a create request, with the form as this profile stores it (lib/orders/order-form.ts). */
export function digestOf(a: {
  profile: OrderProfile;
  dialect?: WireDialect;
  input: CreateOrderInput;
  form: Record<string, unknown>;
}): string {
  return digestWith(a.profile, a.dialect, a.input, a.form);
}

/**
 * The digest of the request exactly as sent (the form before normalisation).
 * It needs no product, so an identical retry is recognised whatever happened
 * to the product since (issue 8.7, D18).
 */
export function rawDigestOf(a: { profile: OrderProfile; dialect?: WireDialect; input: CreateOrderInput }): string {
  return digestWith(a.profile, a.dialect, a.input);
}
