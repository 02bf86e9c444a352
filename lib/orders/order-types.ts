import type { OrderView } from "../order-read/order-view";
import type { WireDialect } from "../protocol/profiles";

// The create-order request and result, in service terms (no wire names): the
// edge (lib/supplier-api/endpoints/orders.ts) translates the body into these.

export type OrderProfile = "U" | "P";

export interface CreateOrderInput {
  downstreamOrderNo: string;
  skuId: number;
  quantity: number;
  traceId?: string | null;
  /** Profile U only (validated in createOrder, D29). */
  callbackUrl?: string | null;
  manualFormData?: Record<string, unknown> | null;
  /** Issue 38: the most the buyer will pay for this order (fen); not part of the D18 digest, so a repeat returns its order. */
  maxTotalCents?: bigint | null;
}

export interface CreateOrderArgs {
  credential: { id: number; userId: string };
  profile: OrderProfile;
  /** Decision 0090: a Dujiao-Next create (Profile U) repeats by sku, quantity and form only, and gets its callbacks in its shape. Default svc. */
  dialect?: WireDialect;
  input: CreateOrderInput;
  /**
   * Issue 40.3: the caller streams a large delivery (lib/serializers/order-stream.ts): an auto order of
   * more than this many keys comes back `streamed`, its keys not read. Default: never (every line read).
   */
  streamAbove?: number;
}

/** `replayed`: the request repeated an earlier one (D18) and got the original order, read-only. */
export interface CreateOrderResult {
  order: OrderView;
  replayed: boolean;
}
