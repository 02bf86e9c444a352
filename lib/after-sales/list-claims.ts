import { db } from "../db/client";
import { appError } from "../errors";
import type { ClaimState } from "../generated/prisma/enums";
import { CLAIM_SELECT, toClaimView, type ClaimView } from "./claim-view";

/** The claims of one order of one key, oldest first, and its refunded total (GET …/after-sales; D20: another key's order is 404). */
export async function listOrderClaims({
  credentialId,
  orderId,
}: {
  credentialId: number;
  orderId: number;
}): Promise<{ orderId: number; refundedCents: bigint; claims: ClaimView[] }> {
  const order =
    Number.isSafeInteger(orderId) && orderId > 0 && orderId <= 2_147_483_647
      ? await db().order.findFirst({ where: { id: orderId, credentialId }, select: { id: true, refundedCents: true } })
      : null;
  if (!order) throw appError("order_not_found", "order not found");
  const rows = await db().afterSalesClaim.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" }, select: CLAIM_SELECT });
  return { orderId: order.id, refundedCents: order.refundedCents, claims: rows.map(toClaimView) };
}

/** The console's queue and `claim:list`: newest first, optionally of one state. Lines stay masked (claimedLine is not called). */
export async function listClaims({ state, limit = 200 }: { state?: ClaimState; limit?: number } = {}): Promise<ClaimView[]> {
  const rows = await db().afterSalesClaim.findMany({
    where: state ? { state } : {},
    orderBy: { id: "desc" },
    take: limit,
    select: CLAIM_SELECT,
  });
  return rows.map(toClaimView);
}
