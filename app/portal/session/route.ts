import { NextResponse } from "next/server";
import { clientIp } from "@/lib/net/client-address";
import { DEVICE_COOKIE_MAX_AGE_SECONDS, issueDeviceCookie, isTrustedDevice } from "@/lib/admin-auth/device-cookie";
import { cookiesMustBeSecure } from "@/lib/admin-auth/secure-cookies";
import { createBuyerSession, PORTAL_SESSION_COOKIE, PORTAL_SESSION_MAX_AGE_SECONDS } from "@/lib/portal-auth/buyer-session";
import { CODE_STEP_COOKIE, CODE_STEP_SECONDS, issueCodeStepTicket, readCodeStepTicket } from "@/lib/portal-auth/code-step-ticket";
import { cookieValue, sameOrigin } from "@/lib/portal-auth/portal-route";
import { buyerAccountName, verifyBuyerSignIn } from "@/lib/portal-auth/verify-buyer-sign-in";
import { formText } from "@/lib/input/form-text";

export const dynamic = "force-dynamic";

/** The portal's device cookie (decision 0011's owner exemption), apart from the console's. */
const PORTAL_DEVICE_COOKIE = "cardkey-portal-device";

const back = (req: Request, path: string) => NextResponse.redirect(new URL(path, req.url), 303);

/**
 * POST /portal/session: the sign-in form (works without JavaScript). Any
 * refusal looks the same. With two-factor on, a right password leads to the
 * code page (a signed ticket, code-step-ticket.ts) and the form posts the code
 * here again; a wrong code stays on that page until the ticket expires.
 */
export async function POST(req: Request) {
  if (!sameOrigin(req)) return back(req, "/portal/sign-in?error=invalid");
  const form = await req.formData().catch(() => null);
  if (!form) return back(req, "/portal/sign-in?error=invalid");
  const ip = clientIp(req.headers);
  const codeStep = form.has("code");
  const ticket = codeStep ? readCodeStepTicket(cookieValue(req, CODE_STEP_COOKIE)) : null;
  if (codeStep && !ticket) return back(req, "/portal/sign-in?error=expired");
  const email = ticket?.email ?? formText(form, "email").trim().toLowerCase().slice(0, 254);
  const trustedDevice = isTrustedDevice(cookieValue(req, PORTAL_DEVICE_COOKIE), buyerAccountName(email));
  const result = await verifyBuyerSignIn(
    ticket
      ? { email, passwordProof: ticket.passwordProof, code: formText(form, "code"), ip, trustedDevice }
      : { email, password: formText(form, "password"), ip, trustedDevice },
  );
  const secure = await cookiesMustBeSecure();
  const cookie = (maxAge: number) => ({ httpOnly: true, sameSite: "lax" as const, secure, path: "/portal", maxAge });
  if (!result.ok && result.reason === "totp_required") {
    const res = back(req, "/portal/sign-in?step=code");
    res.cookies.set(CODE_STEP_COOKIE, issueCodeStepTicket(email, result.passwordProof), cookie(CODE_STEP_SECONDS));
    return res;
  }
  if (!result.ok) return back(req, ticket ? "/portal/sign-in?step=code&error=invalid" : "/portal/sign-in?error=invalid");
  const { token } = await createBuyerSession({ userId: result.userId, ip, userAgent: req.headers.get("user-agent") });
  const res = back(req, "/portal");
  res.cookies.set(PORTAL_SESSION_COOKIE, token, cookie(PORTAL_SESSION_MAX_AGE_SECONDS));
  res.cookies.set(PORTAL_DEVICE_COOKIE, issueDeviceCookie(buyerAccountName(result.email)), cookie(DEVICE_COOKIE_MAX_AGE_SECONDS));
  if (ticket) res.cookies.set(CODE_STEP_COOKIE, "", cookie(0));
  return res;
}
