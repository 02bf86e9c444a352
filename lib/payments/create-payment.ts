import crypto from "node:crypto";
import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { accountPendingError } from "../buyer-access/approved-buyer";
import { db } from "../db/client";
import { appError } from "../errors";
import { parseInput } from "../input/parse-input";
import { log } from "../log";
import { formatAmount, isAmount, parseAmount } from "../protocol/amount";
import { getSettings } from "../settings/get-settings";
import { driverFor } from "./drivers";
import { gatewayChannel } from "./gateway-channel";
import { alertChannelCreateFailed } from "./payment-alerts";
import { gatewayPayment, paymentView } from "./payment-view";

// Issue 36: a buyer starts a top-up through a gateway. The row is written
// (state created) and committed BEFORE the gateway is called, so a notify
// that races the create finds the payment and is told to retry, and a crash
// between the two leaves a row the periodic query settles. Nothing is
// credited here: only a verified report (apply-report.ts) or an operator's
// confirmation credits.

/** Open (created or pending, not expired) payments one buyer may have at once. */
export const MAX_OPEN_PAYMENTS = 10;
/** Creates one buyer may start per 10 minutes (counted in the database: every instance sees them). */
export const MAX_CREATES_PER_WINDOW = 20;
const CREATE_WINDOW_MS = 10 * 60_000;

export const CreatePaymentSchema = z.object({
  // A number; the portal's plain form sends its digits as text.
  channel_id: z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,10}$/)
          .transform(Number),
      ],
      { message: "must be a channel id (a number)" },
    )
    .pipe(z.number().int().min(1).max(2_147_483_647)),
  amount: z
    .string({ message: 'must be an amount string like "10.00"' })
    .trim()
    .refine((s) => isAmount(s) && parseAmount(s) > 0n, 'must be an amount above 0.00 with at most two decimals, like "10.00"')
    .transform((s) => parseAmount(s)),
});

/** A payment number: date and 60 random bits, letters and digits only (every gateway's out_trade_no takes it). */
function newPaymentNo(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  return `TP${day}${crypto.randomBytes(8).readBigUInt64BE().toString(36).toUpperCase().padStart(13, "0").slice(0, 12)}`;
}

export async function createPayment({ userId, input, actor }: { userId: string; input: unknown; actor: Actor }) {
  const { channel_id: channelId, amount } = parseInput(CreatePaymentSchema, input);
  const now = new Date();
  const { payment, channel } = await db().$transaction(async (tx) => {
    // Serialises one buyer's creates, so the limits hold under concurrent submissions.
    const [buyer] = await tx.$queryRaw<{ registrationPending: boolean }[]>`
      SELECT "registrationPending" FROM "User" WHERE "id" = ${userId}::uuid FOR UPDATE`;
    if (!buyer) throw appError("user_not_found", "user not found");
    if (buyer.registrationPending) throw accountPendingError();
    const channel = await tx.paymentChannel.findUnique({ where: { id: channelId } });
    if (!channel) throw appError("channel_not_found", `no payment channel ${channelId}`);
    if (!channel.enabled) throw appError("channel_disabled", "this payment channel is disabled; choose another");
    if (amount < channel.minCents || amount > channel.maxCents)
      throw appError(
        "bad_request",
        `amount: must be from ${formatAmount(channel.minCents)} to ${formatAmount(channel.maxCents)} on this channel`,
      );
    const recent = await tx.payment.count({ where: { userId, createdAt: { gt: new Date(now.getTime() - CREATE_WINDOW_MS) } } });
    if (recent >= MAX_CREATES_PER_WINDOW)
      throw appError("rate_limited", `at most ${MAX_CREATES_PER_WINDOW} payments in 10 minutes; try again later`, {
        headers: { "Retry-After": "600" },
      });
    const open = await tx.payment.count({ where: { userId, state: { in: ["created", "pending"] }, expiresAt: { gt: now } } });
    if (open >= MAX_OPEN_PAYMENTS)
      throw appError("conflict", `at most ${MAX_OPEN_PAYMENTS} payments may be open at once; pay or let one expire`);
    const payment = await tx.payment.create({
      data: {
        paymentNo: newPaymentNo(now),
        channelId,
        userId,
        amountCents: amount,
        currency: channel.currency,
        expiresAt: new Date(now.getTime() + channel.expireMinutes * 60_000),
      },
    });
    await writeAuditLog(tx, {
      actor,
      action: "payment.create",
      targetType: "payment",
      targetId: payment.paymentNo,
      details: { channel: channel.name, amount: formatAmount(amount) },
    });
    return { payment, channel };
  });

  const { publicBaseUrl } = await getSettings();
  try {
    const created = await driverFor(channel.driver).create(gatewayChannel(channel), gatewayPayment(payment, publicBaseUrl));
    const updated = await db().payment.update({
      where: { id: payment.id },
      data: { state: "pending", payUrl: created.payUrl, providerRef: created.providerRef ?? null },
    });
    return paymentView(updated);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    log.warn(
      { component: "payments", channel: channel.id, paymentNo: payment.paymentNo, err: why },
      "payment create failed at the gateway",
    );
    await db().$transaction(async (tx) => {
      await tx.payment.update({ where: { id: payment.id }, data: { state: "failed", stateReason: `create failed: ${why}`.slice(0, 500) } });
      await alertChannelCreateFailed(tx, { channelId: channel.id, channelName: channel.name, now });
    });
    throw appError("upstream_unreachable", "the payment gateway did not accept the payment; try again later or choose another channel");
  }
}
