import { NextResponse } from "next/server";
import { clientIp, throttleGroup } from "@/lib/net/client-address";
import { reserveAttempt } from "@/lib/admin-auth/attempt-counter";
import { sameOrigin } from "@/lib/portal-auth/portal-route";
import { EmailSchema } from "@/lib/users/email";
import { registerBuyer } from "@/lib/users/register-buyer";
import { formText } from "@/lib/input/form-text";

export const dynamic = "force-dynamic";

/** POST /portal/register/send: the same answer for a new and a known address; at most 5 sign-ups per address and hour. */
export async function POST(req: Request) {
  const done = NextResponse.redirect(new URL("/portal/register?done=1", req.url), 303);
  if (!sameOrigin(req)) return done;
  const form = await req.formData().catch(() => null);
  const email = EmailSchema.safeParse(formText(form, "email"));
  const ip = clientIp(req.headers);
  if (!email.success) return NextResponse.redirect(new URL("/portal/register", req.url), 303);
  const gate = await reserveAttempt(`register-ip:${encodeURIComponent(throttleGroup(ip ?? "unknown"))}`, 5, 3600);
  // The link to choose a password goes out by e-mail (lib/users/mail-buyer-link.ts, issue 25).
  if (gate.allowed) await registerBuyer({ email: email.data, ip });
  return done;
}
