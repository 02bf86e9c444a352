import { NextResponse, type NextRequest } from "next/server";
import { LOCALES } from "@/lib/i18n/messages";
import { LOCALE_COOKIE } from "@/lib/i18n/negotiate";

export const dynamic = "force-dynamic";

/**
 * The language switch: GET /admin/locale?to=zh-CN&back=/admin/orders sets the
 * cookie for a year and goes back. `back` must be an admin path (no open
 * redirect). Changing the language needs no session (the sign-in page has it too).
 */
export function GET(req: NextRequest) {
  const to = req.nextUrl.searchParams.get("to") ?? "";
  const backRaw = req.nextUrl.searchParams.get("back") ?? "/admin";
  const back = /^\/admin(\/[\w\-./()[\]]*)?(\?[^\\]*)?$/.test(backRaw) && !backRaw.startsWith("//") ? backRaw : "/admin";
  const res = new NextResponse(null, { status: 303, headers: { Location: back } });
  if ((LOCALES as readonly string[]).includes(to)) {
    res.cookies.set(LOCALE_COOKIE, to, { path: "/admin", maxAge: 365 * 24 * 3600, sameSite: "lax", httpOnly: true });
  }
  return res;
}
