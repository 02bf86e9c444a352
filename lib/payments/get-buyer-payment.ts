import { db } from "../db/client";
import { appError } from "../errors";
import { paymentView } from "./payment-view";

/** A buyer's own payment by its number; another buyer's and a missing one are the same 404 (issue 24.3). */
export async function getBuyerPayment(userId: string, paymentNo: string) {
  const p = paymentNo.length <= 64 ? await db().payment.findFirst({ where: { paymentNo, userId } }) : null;
  if (!p) throw appError("payment_not_found", "no such payment");
  return paymentView(p);
}

/** A buyer's latest payments, for the top-up page. */
export async function listBuyerPayments(userId: string, take = 20) {
  const rows = await db().payment.findMany({ where: { userId }, orderBy: { id: "desc" }, take });
  return rows.map(paymentView);
}
