import { redirect } from "next/navigation";
import { LanguageSwitch } from "@/components/language-switch";
import { getI18n } from "@/lib/i18n/server";
import { currentBuyer } from "@/lib/portal-auth/require-buyer";
import { getSettings } from "@/lib/settings/get-settings";

export const dynamic = "force-dynamic";

/** A plain form posting to /portal/session: signing in needs no JavaScript. */
export default async function PortalSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentBuyer()) redirect("/portal");
  const { t, locale } = await getI18n();
  const params = await searchParams;
  const { buyerRegistration } = await getSettings();
  return (
    <main className="sign-in">
      <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
      <div className="card">
        <h1 style={{ fontSize: 20, marginTop: 0 }}>{t("portal.signIn.title")}</h1>
        {params.signedOut ? (
          <div className="msg msg-ok" role="status">
            {t("portal.signIn.signedOut")}
          </div>
        ) : null}
        {params.passwordSet ? (
          <div className="msg msg-ok" role="status">
            {t("portal.signIn.passwordSet")}
          </div>
        ) : null}
        <form className="form-grid" method="post" action="/portal/session" data-testid="portal-sign-in-form">
          <div className="field">
            <label htmlFor="email">{t("portal.common.email")}</label>
            <input id="email" name="email" type="email" autoComplete="username" required />
          </div>
          <div className="field">
            <label htmlFor="password">{t("portal.common.password")}</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required />
          </div>
          {params.error ? (
            <div className="msg msg-error" role="alert">
              {t("portal.signIn.error")}
            </div>
          ) : null}
          <div>
            <button type="submit" className="btn btn-primary">
              {t("portal.common.signIn")}
            </button>
          </div>
        </form>
        <p>
          <a href="/portal/forgot">{t("portal.signIn.forgot")}</a>
          {buyerRegistration === "approval" ? (
            <>
              {" "}
              · <a href="/portal/register">{t("portal.signIn.register")}</a>
            </>
          ) : null}
        </p>
      </div>
    </main>
  );
}
