import { NextResponse } from "next/server";
import { clientIp, throttleGroup } from "@/lib/net/client-address";
import { reserveAttempt } from "@/lib/admin-auth/attempt-counter";
import { sameOrigin } from "@/lib/portal-auth/portal-route";
import { EmailSchema } from "@/lib/users/email";
import { requestPasswordReset } from "@/lib/users/request-password-reset";
import { formText } from "@/lib/input/form-text";

export const dynamic = "force-dynamic";

/** POST /portal/forgot/send: the same answer for every address; at most 5 requests per address and 15 minutes. */
export async function POST(req: Request) {
  const done = NextResponse.redirect(new URL("/portal/forgot?sent=1", req.url), 303);
  if (!sameOrigin(req)) return done;
  const form = await req.formData().catch(() => null);
  const email = EmailSchema.safeParse(formText(form, "email"));
  const ip = clientIp(req.headers);
  if (!email.success) return done;
  const gate = await reserveAttempt(`reset-ip:${encodeURIComponent(throttleGroup(ip ?? "unknown"))}`, 5, 15 * 60);
  // The link goes out by e-mail (lib/users/mail-buyer-link.ts, issue 25); it is never shown here.
  if (gate.allowed) await requestPasswordReset({ email: email.data, ip });
  return done;
}
