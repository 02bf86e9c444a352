import { z } from "zod";
import type { Actor } from "../audit/actor";
import { consumeOnceToken } from "../audit/consume-once-token";
import { db } from "../db/client";
import { appError } from "../errors";
import { parseInput } from "../input/parse-input";
import { creditPayment, lockPayment } from "./apply-report";

// Issue 36: an operator confirms a payment by hand (a lost notify of a
// gateway without a query API, a payment in review), with the reference they
// checked at the gateway. Credited exactly as a notify credits (the unique
// ledger row per payment); a paid payment is refused; the console's one-time
// token turns its own repeat into "already done".

export const ConfirmPaymentSchema = z.object({
  paymentNo: z.string().trim().min(1, "is required").max(64, "must be at most 64 characters"),
  reference: z
    .string()
    .trim()
    .min(1, "is required: what you checked at the gateway (its trade number, a transfer id)")
    .max(100, "must be at most 100 characters")
    .regex(/^[^\p{Cc}]*$/u, "must not contain control characters"),
});

export async function confirmPayment({ input, actor, onceToken }: { input: unknown; actor: Actor; onceToken?: string }) {
  const { paymentNo, reference } = parseInput(ConfirmPaymentSchema, input);
  return db().$transaction(async (tx) => {
    await consumeOnceToken(tx, onceToken, "payment.confirm");
    const payment = await lockPayment(tx, paymentNo);
    if (!payment) throw appError("payment_not_found", `no payment ${paymentNo}`);
    if (payment.state === "paid") throw appError("payment_final", `payment ${paymentNo} is already paid`);
    await creditPayment(tx, payment, { providerRef: null, actor, how: "confirmed by hand", reference });
    return { payment_no: paymentNo, state: "paid" as const };
  });
}
