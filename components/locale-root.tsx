import type { ReactNode } from "react";
import type { MessageKey } from "@/lib/i18n/messages";
import { getI18n } from "@/lib/i18n/server";

// Issue 34.5: the console's and the portal's root layouts differ only in their title.

/** The tab title in the visitor's language; neither side is for search engines. */
export async function privateSiteMetadata(titleKey: MessageKey) {
  const { t } = await getI18n();
  return { title: t(titleKey), robots: { index: false, follow: false } };
}

/** The shell every console and portal page renders in, marked with the page's language. */
export async function LocaleRoot({ children }: { children: ReactNode }) {
  const { locale } = await getI18n();
  return (
    <div className="admin" lang={locale}>
      {children}
    </div>
  );
}
