import { NextResponse } from "next/server";
import { AppError } from "@/lib/errors";
import { sameOrigin } from "@/lib/portal-auth/portal-route";
import { LinkTokenSchema, setPasswordWithLink } from "@/lib/users/set-password-with-link";
import { formText } from "@/lib/input/form-text";

export const dynamic = "force-dynamic";

const to = (req: Request, path: string) => NextResponse.redirect(new URL(path, req.url), 303);

/** POST /portal/set-password: the link page's form. The link is used up only when the password is set. */
export async function POST(req: Request) {
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return to(req, "/portal/sign-in");
  }
  const token = formText(form, "token");
  if (!LinkTokenSchema.safeParse(token).success || !sameOrigin(req)) return to(req, "/portal/sign-in");
  const password = formText(form, "password");
  if (password !== formText(form, "confirm")) return to(req, `/portal/link/${token}?error=mismatch`);
  try {
    await setPasswordWithLink({ token, password });
  } catch (err) {
    if (err instanceof AppError && err.code === "bad_request") return to(req, `/portal/link/${token}?error=weak`);
    if (err instanceof AppError) return to(req, `/portal/link/${token}`);
    throw err;
  }
  return to(req, "/portal/sign-in?passwordSet=1");
}
