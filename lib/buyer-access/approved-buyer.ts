import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";

// Issue 33.3: under buyer_registration = approval a self-registered account
// waits for an administrator (approve-registration.ts). Until then it sees
// its overview and its account page and nothing else: no price list, no
// top-up request, no key, no order, no export. The portal's guard refuses
// such requests at the door; each of those services refuses too, through
// this one rule, so no other caller (a page, a route added later) can skip it.

export const PENDING_MESSAGE = "this account is waiting for an administrator's approval";

/** The refusal every such service throws (403 account_pending). */
export const accountPendingError = () => appError("account_pending", PENDING_MESSAGE);

/** Throws account_pending when `userId` is a buyer still waiting for approval; a missing user is the caller's concern. */
export async function assertApprovedBuyer(userId: string, tx: Tx = db()): Promise<void> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { registrationPending: true } });
  if (user?.registrationPending) throw accountPendingError();
}
