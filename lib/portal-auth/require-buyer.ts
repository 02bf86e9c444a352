import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { clientIp } from "../net/client-address";
import { findLiveBuyer, PORTAL_SESSION_COOKIE, type LiveBuyer } from "./buyer-session";

/** The signed-in buyer as portal pages and actions see it: who, which session, from where. */
export interface BuyerSession extends LiveBuyer {
  ip: string | null;
}

/** The buyer of this request's portal cookie, or null. Reads only the portal's own cookie (decision 0038). */
export async function currentBuyer(): Promise<BuyerSession | null> {
  const live = await findLiveBuyer((await cookies()).get(PORTAL_SESSION_COOKIE)?.value);
  return live ? { ...live, ip: clientIp(await headers()) } : null;
}

/**
 * Every portal page calls this first (through the portal layout and again in
 * the page): no session, no page. An account waiting for approval (issue
 * 33.3) is sent to the overview, which says it waits; only the overview and
 * the account page (and the layout around them) pass `pending: "allowed"`.
 */
export async function requireBuyer({ pending = "refused" }: { pending?: "allowed" | "refused" } = {}): Promise<BuyerSession> {
  const buyer = await currentBuyer();
  if (!buyer) redirect("/portal/sign-in");
  if (buyer.registrationPending && pending !== "allowed") redirect("/portal");
  return buyer;
}

/** For a page under an id: a missing row and another buyer's row answer the same 404 (issue 24.3). */
export function orNotFound<T>(row: T | null | undefined): T {
  if (row === null || row === undefined) notFound();
  return row;
}
