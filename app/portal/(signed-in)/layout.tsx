import type { ReactNode } from "react";
import { LanguageSwitch } from "@/components/language-switch";
import { PortalNav } from "@/components/portal-nav";
import { getI18n } from "@/lib/i18n/server";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { PORTAL_NAV } from "../portal-routes";

export const dynamic = "force-dynamic";

/** What an account waiting for approval may open (issue 33.3). */
const PENDING_NAV = new Set<string>(["/portal", "/portal/account"]);

/** Every signed-in portal page sits under this layout, which refuses a request without a live portal session. */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  const buyer = await requireBuyer({ pending: "allowed" }); // each page decides (issue 33.3)
  const { t, locale } = await getI18n();
  return (
    <div className="admin-shell">
      <aside className="admin-side">
        <div className="admin-brand">
          <span>{t("portal.title")}</span>
        </div>
        <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
        <PortalNav
          items={PORTAL_NAV.filter((n) => !buyer.registrationPending || PENDING_NAV.has(n.href)).map((n) => ({
            href: n.href,
            label: t(n.label),
          }))}
          menuLabel={t("nav.menu")}
          signOutLabel={t("portal.nav.signOut")}
        />
        <a className="admin-docs-link" href="/docs">
          {t("nav.apiReference")}
        </a>
        <div className="admin-user">{t("portal.signedInAs", { email: buyer.email })}</div>
      </aside>
      <main className="admin-main">
        {buyer.registrationPending ? (
          <div className="msg msg-warn" role="status">
            {t("portal.pending")}
          </div>
        ) : null}
        {children}
      </main>
    </div>
  );
}
