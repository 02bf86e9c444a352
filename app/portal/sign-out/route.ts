import { NextResponse } from "next/server";
import { buyerActor } from "@/lib/audit/actor";
import { PORTAL_SESSION_COOKIE, revokeBuyerSession } from "@/lib/portal-auth/buyer-session";
import { buyerOf, sameOrigin } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/sign-out: ends this session on the server (a copied cookie stops working too) and clears the cookie. */
export async function POST(req: Request) {
  const res = NextResponse.redirect(new URL("/portal/sign-in?signedOut=1", req.url), 303);
  if (!sameOrigin(req)) return res;
  const buyer = await buyerOf(req);
  if (buyer) await revokeBuyerSession({ userId: buyer.userId, sessionId: buyer.sessionId, actor: buyerActor(buyer), why: "sign_out" });
  res.cookies.set(PORTAL_SESSION_COOKIE, "", { path: "/portal", maxAge: 0 });
  return res;
}
