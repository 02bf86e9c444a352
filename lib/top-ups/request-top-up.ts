import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { parseInput } from "../input/parse-input";
import { db } from "../db/client";
import { alertTopUpRequest } from "../alerts/order-alerts";
import { appError } from "../errors";
import { formatAmount, isAmount, parseAmount } from "../protocol/amount";
import { accountPendingError } from "../buyer-access/approved-buyer";

// Issue 24.2: a buyer asks for points against a bank transfer. Nothing moves
// here: money moves only when an administrator approves (approve-top-up.ts).
// THE place a request is created: the "a top-up request arrived" alert is
// wired here, in this transaction (issue 25).

/** Most a single request may ask for (1,000,000.00), so a typo cannot queue an absurd amount. */
export const MAX_TOP_UP_CENTS = 100_000_000n;
/** Open requests one buyer may have at once. */
export const MAX_PENDING_TOP_UPS = 5;

export const TopUpRequestSchema = z.object({
  amount: z
    .string()
    .trim()
    .refine(
      (s) => isAmount(s) && parseAmount(s) > 0n && parseAmount(s) <= MAX_TOP_UP_CENTS,
      'must be an amount above 0.00 and at most 1000000.00, like "500.00"',
    )
    .transform((s) => parseAmount(s)),
  transferReference: z
    .string()
    .trim()
    .min(1, "is required")
    .max(100, "must be at most 100 characters")
    .regex(/^[^\p{Cc}]*$/u, "must not contain control characters"),
});
export type TopUpRequestInput = z.input<typeof TopUpRequestSchema>;

export async function requestTopUp({ userId, input, actor }: { userId: string; input: TopUpRequestInput; actor: Actor }) {
  const { amount, transferReference } = parseInput(TopUpRequestSchema, input);
  return db().$transaction(async (tx) => {
    // Serialises one buyer's requests, so the open-request limit holds under concurrent submissions.
    const [buyer] = await tx.$queryRaw<
      { email: string; registrationPending: boolean }[]
    >`SELECT "email", "registrationPending" FROM "User" WHERE "id" = ${userId}::uuid FOR UPDATE`;
    // Issue 33.3: an unapproved account neither files a request nor alerts the operator.
    if (buyer?.registrationPending) throw accountPendingError();
    const open = await tx.topUpRequest.count({ where: { userId, state: "pending" } });
    if (open >= MAX_PENDING_TOP_UPS) throw appError("conflict", `at most ${MAX_PENDING_TOP_UPS} top-up requests may wait at once`);
    const row = await tx.topUpRequest.create({ data: { userId, amountCents: amount, transferReference } });
    await alertTopUpRequest(tx, { requestId: row.id, buyerEmail: buyer?.email ?? "", amountCents: amount }); // issue 25
    await writeAuditLog(tx, {
      actor,
      action: "top_up.request",
      targetType: "top_up",
      targetId: String(row.id),
      details: { amount: formatAmount(amount) },
    });
    return row;
  });
}
