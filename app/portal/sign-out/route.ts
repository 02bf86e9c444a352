import { NextResponse } from "next/server";
import { writeAuditLog } from "@/lib/audit/write-audit-log";
import { buyerActor } from "@/lib/audit/actor";
import { db } from "@/lib/db/client";
import { PORTAL_SESSION_COOKIE, revokeBuyerSession } from "@/lib/portal-auth/buyer-session";
import { buyerOf, sameOrigin } from "@/lib/portal-auth/portal-route";

export const dynamic = "force-dynamic";

/** POST /portal/sign-out: ends this session on the server (a copied cookie stops working too) and clears the cookie. */
export async function POST(req: Request) {
  const res = NextResponse.redirect(new URL("/portal/sign-in?signedOut=1", req.url), 303);
  if (!sameOrigin(req)) return res;
  const buyer = await buyerOf(req);
  if (buyer && (await revokeBuyerSession({ userId: buyer.userId, sessionId: buyer.sessionId }))) {
    await writeAuditLog(db(), { actor: buyerActor(buyer), action: "buyer.sign_out", targetType: "user", targetId: buyer.userId });
  }
  res.cookies.set(PORTAL_SESSION_COOKIE, "", { path: "/portal", maxAge: 0 });
  return res;
}
