import { z } from "zod";
import { buyerActor } from "@/lib/audit/actor";
import { createPayment } from "@/lib/payments/create-payment";
import { portalAction } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/api/payments {channel_id, amount}: a payment at the channel's gateway → {payment_no, pay_url, expires_at, state}. Nothing is credited here. */
// The service checks the values (CreatePaymentSchema); here only their shape.
export const POST = portalAction(z.object({ channel_id: z.unknown(), amount: z.unknown() }), async (input, { buyer }) =>
  createPayment({ userId: buyer.userId, input, actor: buyerActor(buyer) }),
);
