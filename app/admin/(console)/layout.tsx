import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin-nav";
import { LanguageSwitch } from "@/components/language-switch";
import { requireSession } from "@/lib/admin-auth/require-admin";
import { getI18n } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

/** An e-mail address that may wrap only before "@" or a dot, never inside a word (issue 35.3). */
function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <span className="email" translate="no">
      {parts.map((p, i) => (
        <span key={i}>
          {i ? <wbr /> : null}
          {p}
        </span>
      ))}
    </span>
  );
}

/**
 * Every console page sits under this layout, which refuses a request without a
 * session. Issue 22.8: while a generated first password is not yet replaced,
 * the navigation holds only the password page (every other page and action
 * sends the administrator there: requireAdmin).
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { admin, passwordChangeRequired } = await requireSession();
  const { t, locale } = await getI18n();
  const password = { href: "/admin/password", label: t("nav.password") };
  const items = passwordChangeRequired
    ? [password]
    : [
        { href: "/admin", label: t("nav.dashboard") },
        { href: "/admin/orders", label: t("nav.orders") },
        { href: "/admin/catalog", label: t("nav.catalog") },
        { href: "/admin/manual", label: t("nav.manual") },
        { href: "/admin/review", label: t("nav.review") },
        { href: "/admin/fulfillers", label: t("fulfillers.nav") },
        { href: "/admin/claims", label: t("claims.nav") },
        { href: "/admin/buyers", label: t("nav.buyers") },
        { href: "/admin/top-ups", label: t("topUps.nav") },
        { href: "/admin/payments", label: t("payments.admin.title") },
        { href: "/admin/levels", label: t("levels.nav") },
        { href: "/admin/api-keys", label: t("nav.apiKeys") },
        { href: "/admin/upstream", label: t("nav.upstream") },
        { href: "/admin/jobs", label: t("nav.jobs") },
        { href: "/admin/alerts", label: t("alerts.nav") },
        { href: "/admin/settings", label: t("nav.settings") },
        { href: "/admin/audit", label: t("nav.audit") },
        { href: "/admin/security", label: t("nav.security") },
        password,
      ];
  return (
    <div className="admin-shell">
      <aside className="admin-side">
        <div className="admin-brand">
          <span>{t("app.title")}</span>
        </div>
        <LanguageSwitch current={locale} label={t("nav.language")} />
        <AdminNav items={items} menuLabel={t("nav.menu")} signOutLabel={t("nav.signOut")} />
        {/* A plain link: /docs is a static page outside the console (issue 11.2). */}
        <a className="admin-docs-link" href="/docs" data-testid="api-reference-link">
          {t("nav.apiReference")}
        </a>
        <div className="admin-user" data-testid="signed-in-as">
          {t("nav.signedInAs", { email: "\u0000" })
            .split("\u0000")
            .map((part, i) => (i === 0 ? part : [<EmailText key={i} email={admin.email} />, part]))}
        </div>
      </aside>
      <main className="admin-main">{children}</main>
    </div>
  );
}
