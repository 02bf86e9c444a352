import { enqueueAlert } from "../alerts/enqueue-alert";
import type { Tx } from "../db/tx";
import { formatAmount } from "../protocol/amount";

// Issue 36: the two payment alerts, each recorded in the transaction of the state change that causes it.

/** A payment needs an operator: paid at the gateway after it expired or failed here, or a report that does not match it. */
export async function alertPaymentReview(tx: Tx, p: { paymentNo: string; amountCents: bigint; reason: string }): Promise<void> {
  await enqueueAlert(tx, {
    kind: "payment_review",
    dedupeKey: `payment_review:${p.paymentNo}`,
    params: { paymentNo: p.paymentNo, amount: formatAmount(p.amountCents), reason: p.reason.slice(0, 200) },
  });
}

/** A channel's gateway refused or did not answer a create: at most one alert per channel per 10 minutes. */
export async function alertChannelCreateFailed(tx: Tx, c: { channelId: number; channelName: string; now: Date }): Promise<void> {
  const window = Math.floor(c.now.getTime() / 600_000);
  await enqueueAlert(tx, {
    kind: "payment_channel_failing",
    dedupeKey: `payment_channel_failing:${c.channelId}:${window}`,
    params: { channelId: c.channelId, channel: c.channelName },
  });
}
