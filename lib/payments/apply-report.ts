import { SYSTEM_ACTOR, type Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { changeBalance } from "../points/change-balance";
import { formatAmount, isAmount, parseAmount } from "../protocol/amount";
import type { GatewayReport } from "./drivers/driver";
import { alertPaymentReview } from "./payment-alerts";

// Issue 36 (decision 0089): THE place a gateway's word about a payment
// becomes money. A notify and an active query both end here; each runs in one
// transaction holding the payment's row lock, so 20 identical notifies on two
// instances and a notify racing the query credit once: the first finds the
// payment pending and credits it, the rest find it paid and change nothing.
// The ledger's unique paymentId backs this up in the database itself.

export type ReportOutcome =
  | { kind: "credited" }
  /** Already paid (or in review): a repeat; the gateway is told success, nothing changes. */
  | { kind: "duplicate" }
  /** Paid at the gateway after it expired or failed here: an operator decides (never credited straight). */
  | { kind: "review"; reason: string }
  /** The report does not match the payment (number, channel, amount, currency, reference): nothing changes. */
  | { kind: "refused"; why: string }
  /** The gateway says not paid (yet): nothing changes. */
  | { kind: "not_paid" }
  /** The payment's create has not finished: the gateway is asked to retry. */
  | { kind: "not_ready" };

interface LockedPayment {
  id: number;
  paymentNo: string;
  channelId: number;
  userId: string;
  amountCents: bigint;
  currency: string;
  state: "created" | "pending" | "paid" | "expired" | "failed" | "review";
  providerRef: string | null;
}

/** Locks a payment by its number (the report's), or null. */
export async function lockPayment(tx: Tx, paymentNo: string): Promise<LockedPayment | null> {
  const rows = await tx.$queryRaw<LockedPayment[]>`
    SELECT "id", "paymentNo", "channelId", "userId"::text AS "userId", "amountCents", "currency", "state"::text AS "state", "providerRef"
    FROM "Payment" WHERE "paymentNo" = ${paymentNo} FOR UPDATE`;
  return rows[0] ?? null;
}

/** What is wrong with a report for this payment, or null when it matches (number, channel, amount, currency, reference). */
async function mismatch(tx: Tx, payment: LockedPayment | null, channelId: number, report: GatewayReport): Promise<string | null> {
  if (!payment || payment.channelId !== channelId) return "unknown payment number for this channel";
  // "10.0" equals "10.00"; anything that is not a plain decimal amount is no amount at all.
  if (!isAmount(report.amount) || parseAmount(report.amount) !== payment.amountCents)
    return `amount ${report.amount.slice(0, 20)} is not ${formatAmount(payment.amountCents)}`;
  if (report.currency.toUpperCase() !== payment.currency.toUpperCase())
    return `currency ${report.currency.slice(0, 20)} is not ${payment.currency}`;
  if (!report.providerRef) return "no provider reference";
  if (payment.providerRef && payment.providerRef !== report.providerRef) return "provider reference differs from the payment's";
  const other = await tx.payment.findFirst({
    where: { channelId, providerRef: report.providerRef, NOT: { id: payment.id } },
    select: { id: true },
  });
  if (other) return "provider reference already used by another payment";
  return null;
}

/** Credits a pending payment once: the ledger row, the state, the audit row, in the caller's transaction. */
export async function creditPayment(
  tx: Tx,
  payment: LockedPayment,
  opts: { providerRef: string | null; actor: Actor; how: string; reference?: string },
) {
  await changeBalance(tx, {
    userId: payment.userId,
    deltaCents: payment.amountCents,
    reason: `top-up ${payment.paymentNo}`,
    paymentId: payment.id,
    adminUserId: opts.actor.kind === "admin" ? opts.actor.id : undefined,
  });
  await tx.payment.update({
    where: { id: payment.id },
    data: {
      state: "paid",
      paidAt: new Date(),
      providerRef: payment.providerRef ?? opts.providerRef,
      ...(opts.reference
        ? { confirmReference: opts.reference, confirmedBy: opts.actor.kind === "admin" ? `admin #${opts.actor.id}` : opts.actor.kind }
        : {}),
    },
  });
  await writeAuditLog(tx, {
    actor: opts.actor,
    action: opts.reference ? "payment.confirm" : "payment.paid",
    targetType: "payment",
    targetId: payment.paymentNo,
    details: { amount: formatAmount(payment.amountCents), how: opts.how, ...(opts.reference ? { reference: opts.reference } : {}) },
  });
}

/** Applies one verified report (its signature and merchant already checked by the driver) to the payment it names. */
export async function applyReport({
  channelId,
  report,
  source,
}: {
  channelId: number;
  report: GatewayReport;
  source: "notify" | "query";
}): Promise<{ outcome: ReportOutcome; paymentId: number | null }> {
  return db().$transaction(async (tx) => {
    const payment = await lockPayment(tx, report.paymentNo);
    const paymentId = payment && payment.channelId === channelId ? payment.id : null;
    const wrong = await mismatch(tx, payment, channelId, report);
    if (wrong || !payment) return { outcome: { kind: "refused", why: wrong ?? "unknown payment" }, paymentId };
    if (!report.paid) return { outcome: { kind: "not_paid" }, paymentId };
    switch (payment.state) {
      case "created":
        return { outcome: { kind: "not_ready" }, paymentId };
      case "paid":
      case "review":
        return { outcome: { kind: "duplicate" }, paymentId };
      case "pending":
        await creditPayment(tx, payment, { providerRef: report.providerRef, actor: SYSTEM_ACTOR, how: source });
        return { outcome: { kind: "credited" }, paymentId };
      case "expired":
      case "failed": {
        const reason = `paid at the gateway after it ${payment.state === "expired" ? "expired" : "failed"} here`;
        await tx.payment.update({
          where: { id: payment.id },
          data: { state: "review", stateReason: reason, providerRef: payment.providerRef ?? report.providerRef },
        });
        await alertPaymentReview(tx, { paymentNo: payment.paymentNo, amountCents: payment.amountCents, reason });
        await writeAuditLog(tx, {
          actor: SYSTEM_ACTOR,
          action: "payment.review",
          targetType: "payment",
          targetId: payment.paymentNo,
          details: { reason, how: source },
        });
        return { outcome: { kind: "review", reason }, paymentId };
      }
    }
  });
}
