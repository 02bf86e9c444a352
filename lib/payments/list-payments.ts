import { z } from "zod";
import { db } from "../db/client";
import { parseInput } from "../input/parse-input";
import { formatAmount } from "../protocol/amount";

// Issue 36: payments for operators (console list, `payments:list`), newest first.

export const PAYMENT_STATES = ["created", "pending", "paid", "expired", "failed", "review"] as const;

export const PaymentFilterSchema = z.object({
  status: z.enum(PAYMENT_STATES, { message: `must be one of ${PAYMENT_STATES.join(", ")}` }).optional(),
  channelId: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1, "must be 1 to 500").max(500, "must be 1 to 500").default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export async function listPayments(input: z.input<typeof PaymentFilterSchema>) {
  const f = parseInput(PaymentFilterSchema, input);
  const where = {
    ...(f.status ? { state: f.status } : {}),
    ...(f.channelId ? { channelId: f.channelId } : {}),
    ...(f.q ? { OR: [{ paymentNo: { contains: f.q } }, { providerRef: { contains: f.q } }, { user: { email: { contains: f.q } } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    db().payment.count({ where }),
    db().payment.findMany({
      where,
      orderBy: { id: "desc" },
      take: f.limit,
      skip: f.offset,
      include: { channel: { select: { name: true } }, user: { select: { email: true } } },
    }),
  ]);
  return {
    total,
    items: rows.map((p) => ({
      payment_no: p.paymentNo,
      state: p.state,
      amount: formatAmount(p.amountCents),
      currency: p.currency,
      channel: p.channel.name,
      channel_id: p.channelId,
      buyer: p.user.email,
      provider_ref: p.providerRef,
      created_at: p.createdAt.toISOString(),
      expires_at: p.expiresAt.toISOString(),
      paid_at: p.paidAt?.toISOString() ?? null,
      reason: p.stateReason,
    })),
  };
}

/** One payment with every notify received (already redacted when stored) and the last query's answer. */
export async function getPaymentDetail(paymentNo: string) {
  const p = await db().payment.findUnique({
    where: { paymentNo },
    include: {
      channel: { select: { name: true, driver: true } },
      user: { select: { email: true } },
      notifies: { orderBy: { id: "asc" }, take: 200 },
    },
  });
  return p;
}
