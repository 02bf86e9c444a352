import crypto from "node:crypto";
import { z } from "zod";
import { db } from "../db/client";
import { encryptText } from "../crypto/secret-box";
import type { Actor } from "../audit/actor";
import { appError } from "../errors";
import { consumeOnceToken } from "../audit/consume-once-token";
import { writeAuditLog } from "../audit/write-audit-log";
import { queueOrderCallback } from "../callbacks/queue-callback";
import { OrderNoSchema } from "../fulfillment/manual-input";
import { AmountInputSchema, formatAmount } from "../protocol/amount";
import { AFTER_SALES_TX, applyRefund } from "./apply-refund";
import { checkLine, lockDeliveredOrder } from "./order-lines";

/** Console form and `order:refund`: lines (0-based, as in delivery_data) or an amount, and why. */
export const RefundOrderPartSchema = z
  .object({
    orderNo: OrderNoSchema,
    lines: z.array(z.int().min(0)).min(1).max(1000).optional(),
    amount: AmountInputSchema.refine((c) => c > 0n, "must be more than 0.00").optional(),
    reason: z.string().trim().min(1, "is required").max(200, "must be at most 200 characters"),
  })
  .refine((v) => (v.lines === undefined) !== (v.amount === undefined), { message: "give either lines or an amount", path: ["lines"] });
export type RefundOrderPartInput = z.input<typeof RefundOrderPartSchema> & { actor: Actor; onceToken?: string };

/**
 * An administrator gives back part of a delivered order without a buyer's
 * claim (issue 26.3): some lines (each at its price, each then marked refunded
 * by a claim row of the administrator's, so it cannot be claimed and refunded
 * again) or an amount. Never more than was paid in all (applyRefund). The
 * refund, ledger row, audit row and Profile U callback commit together.
 */
export async function refundOrderPart(input: RefundOrderPartInput) {
  const parsed = RefundOrderPartSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw appError("bad_request", `${issue.path.join(".") || "input"} ${issue.message}`);
  }
  const { orderNo, lines, amount, reason } = parsed.data;
  const actor = input.actor;
  const adminUserId = actor.kind === "admin" ? actor.id : undefined;
  return db().$transaction(async (tx) => {
    await consumeOnceToken(tx, input.onceToken, "order.refund");
    const found = await tx.order.findUnique({ where: { orderNo }, select: { id: true } });
    const order = found ? await lockDeliveredOrder(tx, found.id) : null;
    if (!order) throw appError("order_not_found", `order ${orderNo} not found`);
    let cents = amount ?? 0n;
    if (lines) {
      const unique = [...new Set(lines)].sort((a, b) => a - b);
      for (const line of unique) {
        checkLine(order, line);
        const live = await tx.afterSalesClaim.findFirst({
          where: { orderId: order.id, line, state: { not: "replaced" } },
          select: { state: true },
        });
        if (live) throw appError("line_already_claimed", `line ${line} has a claim already (${live.state}); resolve it there`);
        await tx.afterSalesClaim.create({
          data: {
            orderId: order.id,
            credentialId: order.credentialId,
            requestId: `admin-refund:${crypto.randomUUID()}`,
            line,
            reason,
            claimedCiphertext: encryptText(order.lines[line]),
            state: "refunded",
            refundCents: order.linePrices[line],
            resolutionNote: reason,
            resolvedBy: actor.kind === "admin" ? `admin #${actor.id}` : actor.kind,
            resolvedAt: new Date(),
          },
        });
        cents += order.linePrices[line];
      }
    }
    const refundedCents = await applyRefund(tx, {
      orderId: order.id,
      cents,
      reason: lines ? `lines ${lines.join(",")}` : "partial refund",
      adminUserId,
    });
    await writeAuditLog(tx, {
      actor,
      action: "order.refund",
      targetType: "order",
      targetId: order.orderNo,
      details: { orderId: order.id, cents: cents.toString(), ...(lines ? { lines } : {}), reason },
    });
    await queueOrderCallback(tx, { orderId: order.id });
    return { orderId: order.id, orderNo: order.orderNo, refunded: formatAmount(cents), refundedTotal: formatAmount(refundedCents) };
  }, AFTER_SALES_TX);
}
