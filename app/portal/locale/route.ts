import { NextResponse, type NextRequest } from "next/server";
import { LOCALES } from "@/lib/i18n/messages";
import { LOCALE_COOKIE } from "@/lib/i18n/negotiate";

export const dynamic = "force-dynamic";

/** The portal's language switch (as /admin/locale): `back` must be a portal path (no open redirect). */
export function GET(req: NextRequest) {
  const to = req.nextUrl.searchParams.get("to") ?? "";
  const backRaw = req.nextUrl.searchParams.get("back") ?? "/portal";
  const back = /^\/portal(\/[\w\-./()[\]]*)?(\?[^\\]*)?$/.test(backRaw) && !backRaw.startsWith("//") ? backRaw : "/portal";
  const res = new NextResponse(null, { status: 303, headers: { Location: back } });
  if ((LOCALES as readonly string[]).includes(to)) {
    res.cookies.set(LOCALE_COOKIE, to, { path: "/portal", maxAge: 365 * 24 * 3600, sameSite: "lax", httpOnly: true });
  }
  return res;
}
