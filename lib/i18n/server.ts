import { cookies, headers } from "next/headers";
import { MESSAGES, translator, type Locale } from "./messages";
import { LOCALE_COOKIE, negotiateLocale } from "./negotiate";

/** The request's language and its translate function (server components and actions). */
export async function getI18n(): Promise<{ locale: Locale; t: ReturnType<typeof translator>; messages: (typeof MESSAGES)[Locale] }> {
  const locale = negotiateLocale((await cookies()).get(LOCALE_COOKIE)?.value, (await headers()).get("accept-language"));
  return { locale, t: translator(locale), messages: MESSAGES[locale] };
}
