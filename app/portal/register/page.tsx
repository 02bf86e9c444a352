import { LanguageSwitch } from "@/components/language-switch";
import { getI18n } from "@/lib/i18n/server";
import { getSettings } from "@/lib/settings/get-settings";

export const dynamic = "force-dynamic";

/** Open sign-up, shown only while buyer_registration is "approval". */
export default async function PortalRegisterPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { t, locale } = await getI18n();
  const done = (await searchParams).done;
  const { buyerRegistration } = await getSettings();
  return (
    <main className="sign-in">
      <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
      <div className="card">
        <h1 style={{ fontSize: 20, marginTop: 0 }}>{t("portal.register.title")}</h1>
        {buyerRegistration !== "approval" ? (
          <div className="msg msg-warn" role="status">
            {t("portal.register.closed")}
          </div>
        ) : done ? (
          <div className="msg msg-ok" role="status">
            {t("portal.register.done")}
          </div>
        ) : (
          <form className="form-grid" method="post" action="/portal/register/send">
            <p>{t("portal.register.help")}</p>
            <div className="field">
              <label htmlFor="email">{t("portal.common.email")}</label>
              <input id="email" name="email" type="email" autoComplete="username" required />
            </div>
            <div>
              <button type="submit" className="btn btn-primary">
                {t("portal.register.submit")}
              </button>
            </div>
          </form>
        )}
        <p>
          <a href="/portal/sign-in">{t("portal.common.signIn")}</a>
        </p>
      </div>
    </main>
  );
}
