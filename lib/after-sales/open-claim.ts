import { db } from "../db/client";
import { isUniqueViolation } from "../db/tx";
import type { Tx } from "../db/tx";
import { encryptText } from "../crypto/secret-box";
import { appError } from "../errors";
import { SYSTEM_ACTOR } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { CLAIM_SELECT, toClaimView, type ClaimView } from "./claim-view";
import { checkLine, lockDeliveredOrder } from "./order-lines";
import { enqueueUpstreamClaim } from "./queue-upstream-claim";
import { AFTER_SALES_TX } from "./apply-refund";
import { refuseWhenRefundedInFull } from "./replace-allowance";

export interface OpenClaimInput {
  credentialId: number;
  orderId: number;
  /** The caller's request_id: the same one again answers the same claim (D18's rule, per key). */
  requestId: string;
  line: number;
  reason: string;
  now?: Date;
}

const HOUR_MS = 3_600_000;

/**
 * A buyer claims that one delivered line of its order is defective (issue
 * 26.3). Refused with a D1 error when the order is not the key's (404
 * order_not_found, D20), not delivered, its product has no after-sales or
 * the window since delivery has passed, or it is refunded in full (issue
 * 33.4: replace-allowance.ts) (409 after_sales_closed), the line
 * does not exist (400) or has a live claim (409 line_already_claimed). A
 * repeated request_id with the same order, line and reason answers the
 * original claim; with anything else 409 idempotency_conflict. A line we
 * bought from an upstream is claimed there too, by a job stored in the same
 * transaction (claim-upstream.ts). No money moves here.
 */
export async function openClaim(input: OpenClaimInput): Promise<{ claim: ClaimView; created: boolean }> {
  const now = input.now ?? new Date();
  try {
    return await db().$transaction((tx) => openInTx(tx, input, now), AFTER_SALES_TX);
  } catch (err) {
    // A concurrent twin (same request_id, or the same line) won a unique
    // index: load and compare once more (CODE_STYLE), which answers the twin's
    // claim or the clear error (line_already_claimed, idempotency_conflict).
    if (!isUniqueViolation(err)) throw err;
    return db().$transaction((tx) => openInTx(tx, input, now), AFTER_SALES_TX);
  }
}

async function openInTx(tx: Tx, input: OpenClaimInput, now: Date): Promise<{ claim: ClaimView; created: boolean }> {
  const order = await lockDeliveredOrder(tx, input.orderId, input.credentialId);
  if (!order) throw appError("order_not_found", "order not found");
  const existing = await tx.afterSalesClaim.findUnique({
    where: { credentialId_requestId: { credentialId: input.credentialId, requestId: input.requestId } },
    select: CLAIM_SELECT,
  });
  if (existing) {
    if (existing.orderId !== input.orderId || existing.line !== input.line || existing.reason !== input.reason) {
      throw appError("idempotency_conflict", "request_id was already used with a different order, line or reason");
    }
    return { claim: toClaimView(existing), created: false };
  }
  if (order.status !== "delivered" || !order.completedAt) throw appError("after_sales_closed", "the order is not delivered");
  if (order.afterSalesHours <= 0) throw appError("after_sales_closed", "this product has no after-sales");
  const closesAt = order.completedAt.getTime() + order.afterSalesHours * HOUR_MS;
  if (now.getTime() > closesAt)
    throw appError("after_sales_closed", `the after-sales window (${order.afterSalesHours} h after delivery) has passed`);
  refuseWhenRefundedInFull(order, "claim");
  checkLine(order, input.line);
  const live = await tx.afterSalesClaim.findFirst({
    where: { orderId: order.id, line: input.line, state: { not: "replaced" } },
    select: { id: true, state: true },
  });
  if (live) throw appError("line_already_claimed", `line ${input.line} has a claim already (${live.state})`);

  const purchase = await tx.upstreamPurchase.findUnique({ where: { orderId: order.id }, select: { status: true, upstreamOrderId: true } });
  const upstream = purchase?.status === "delivered" && purchase.upstreamOrderId !== null;
  const row = await tx.afterSalesClaim.create({
    data: {
      orderId: order.id,
      credentialId: input.credentialId,
      requestId: input.requestId,
      line: input.line,
      reason: input.reason,
      claimedCiphertext: encryptText(order.lines[input.line]),
      upstreamState: upstream ? "pending" : null,
    },
    select: CLAIM_SELECT,
  });
  if (upstream) await enqueueUpstreamClaim(tx, row.id);
  await writeAuditLog(tx, {
    actor: SYSTEM_ACTOR,
    action: "claim.open",
    targetType: "order",
    targetId: order.orderNo,
    details: { claimId: row.id, credentialId: input.credentialId, line: input.line, upstream },
  });
  return { claim: toClaimView(row), created: true };
}
