import { getBuyerPayment } from "@/lib/payments/get-buyer-payment";
import { portalRead } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** GET /portal/api/payments/{payment_no}: the buyer's own payment and its state (the return page polls it). */
export const GET = portalRead(async ({ buyer, params }) => getBuyerPayment(buyer.userId, String(params.paymentNo)));
