import type { OrderStatus } from "../generated/prisma/enums";

/**
 * The order state machine (spec section 3, D22, D25), in one place.
 * unknown_review is internal (an upstream did not answer within its maximum
 * wait) and is reported publicly as processing. delivered and failed are
 * final: nothing moves out of them.
 */
export const ALLOWED_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  processing: ["delivered", "failed", "unknown_review"],
  unknown_review: ["delivered", "failed"],
  delivered: [],
  failed: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/** What the buyer sees (spec 3): unknown_review is processing. */
export function isPublicChange(from: OrderStatus, to: OrderStatus): boolean {
  const pub = (s: OrderStatus) => (s === "unknown_review" ? "processing" : s);
  return pub(from) !== pub(to);
}
