import { db } from "../db/client";
import { appError } from "../errors";
import { applyReport, type ReportOutcome } from "./apply-report";
import { driverFor } from "./drivers";
import type { GatewayReport } from "./drivers/driver";
import { gatewayChannel } from "./gateway-channel";
import { gatewayPayment } from "./payment-view";
import { getSettings } from "../settings/get-settings";

// Issue 36: "when in doubt, ask the gateway". The active query of one
// payment: its answer is kept on the payment (the operator's page shows it)
// and applied exactly as a notify is (apply-report.ts), so a lost notify is
// credited once and a late one after it changes nothing.

export interface QueryResult {
  payment_no: string;
  /** False when the gateway has no query API (epusdt): confirm by hand. */
  supported: boolean;
  answer: GatewayReport | null;
  outcome: ReportOutcome["kind"] | null;
}

export async function queryPayment(paymentNo: string): Promise<QueryResult> {
  const payment = await db().payment.findUnique({ where: { paymentNo }, include: { channel: true } });
  if (!payment) throw appError("payment_not_found", `no payment ${paymentNo}`);
  const driver = driverFor(payment.channel.driver);
  if (!driver.query) return { payment_no: paymentNo, supported: false, answer: null, outcome: null };
  const { publicBaseUrl } = await getSettings();
  const answer = await driver.query(gatewayChannel(payment.channel), gatewayPayment(payment, publicBaseUrl));
  await db().payment.update({
    where: { id: payment.id },
    data: { lastQueryAt: new Date(), lastQueryAnswer: answer ? { ...answer } : { found: false } },
  });
  // An answer about another payment number is no answer about this one.
  if (!answer || answer.paymentNo !== paymentNo)
    return { payment_no: paymentNo, supported: true, answer, outcome: answer ? "refused" : null };
  const { outcome } = await applyReport({ channelId: payment.channelId, report: answer, source: "query" });
  return { payment_no: paymentNo, supported: true, answer, outcome: outcome.kind };
}
