import { NextResponse } from "next/server";
import { clientIp } from "@/lib/net/client-address";
import { DEVICE_COOKIE_MAX_AGE_SECONDS, issueDeviceCookie, isTrustedDevice } from "@/lib/admin-auth/device-cookie";
import { cookiesMustBeSecure } from "@/lib/admin-auth/secure-cookies";
import { createBuyerSession, PORTAL_SESSION_COOKIE, PORTAL_SESSION_MAX_AGE_SECONDS } from "@/lib/portal-auth/buyer-session";
import { cookieValue, sameOrigin } from "@/lib/portal-auth/portal-route";
import { buyerAccountName, verifyBuyerSignIn } from "@/lib/portal-auth/verify-buyer-sign-in";

export const dynamic = "force-dynamic";

/** The portal's device cookie (decision 0011's owner exemption), apart from the console's. */
const PORTAL_DEVICE_COOKIE = "cardkey-portal-device";

const back = (req: Request, path: string) => NextResponse.redirect(new URL(path, req.url), 303);

/** POST /portal/session: the sign-in form (works without JavaScript). Any refusal looks the same. */
export async function POST(req: Request) {
  if (!sameOrigin(req)) return back(req, "/portal/sign-in?error=invalid");
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return back(req, "/portal/sign-in?error=invalid");
  }
  const email = String(form.get("email") ?? "")
    .trim()
    .toLowerCase()
    .slice(0, 254);
  const ip = clientIp(req.headers);
  const trustedDevice = isTrustedDevice(cookieValue(req, PORTAL_DEVICE_COOKIE), buyerAccountName(email));
  const result = await verifyBuyerSignIn({ email, password: String(form.get("password") ?? ""), ip, trustedDevice });
  if (!result.ok) return back(req, "/portal/sign-in?error=invalid");
  const { token } = await createBuyerSession({ userId: result.userId, ip, userAgent: req.headers.get("user-agent") });
  const secure = await cookiesMustBeSecure();
  const res = back(req, "/portal");
  res.cookies.set(PORTAL_SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/portal",
    maxAge: PORTAL_SESSION_MAX_AGE_SECONDS,
  });
  res.cookies.set(PORTAL_DEVICE_COOKIE, issueDeviceCookie(buyerAccountName(result.email)), {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/portal",
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
  return res;
}
