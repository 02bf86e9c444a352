import type { GatewayPayment } from "./drivers/driver";
import { formatAmount } from "../protocol/amount";

/** A payment as its buyer sees it (portal page and JSON API): never the channel's settings. */
export type PaymentStateName = "created" | "pending" | "paid" | "expired" | "failed" | "review";

export function paymentView(p: {
  paymentNo: string;
  channelId: number;
  amountCents: bigint;
  state: PaymentStateName;
  payUrl: string | null;
  expiresAt: Date;
  paidAt: Date | null;
  createdAt: Date;
}) {
  return {
    payment_no: p.paymentNo,
    channel_id: p.channelId,
    amount: formatAmount(p.amountCents),
    state: p.state,
    // Only while the buyer can still pay there.
    pay_url: p.state === "pending" ? p.payUrl : null,
    expires_at: p.expiresAt.toISOString(),
    paid_at: p.paidAt?.toISOString() ?? null,
    created_at: p.createdAt.toISOString(),
  };
}
export type PaymentView = ReturnType<typeof paymentView>;

/** A payment as its driver sees it: the same subject and addresses at create and at every query. */
export function gatewayPayment(
  p: { paymentNo: string; channelId: number; amountCents: bigint; expiresAt: Date; providerRef: string | null },
  publicBaseUrl: string,
): GatewayPayment {
  return {
    paymentNo: p.paymentNo,
    amountCents: p.amountCents,
    subject: `Top-up ${p.paymentNo}`,
    notifyUrl: notifyUrl(publicBaseUrl, p.channelId),
    returnUrl: returnUrl(publicBaseUrl, p.paymentNo),
    expiresAt: p.expiresAt,
    providerRef: p.providerRef,
  };
}

/** Where a channel's gateway sends its notifies (register this at the gateway). */
export const notifyUrl = (publicBaseUrl: string, channelId: number) =>
  `${publicBaseUrl.replace(/\/+$/, "")}/api/payments/notify/${channelId}`;
/** Where the buyer's browser comes back to: shows the state, never credits. */
export const returnUrl = (publicBaseUrl: string, paymentNo: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}/portal/top-ups/${encodeURIComponent(paymentNo)}`;
