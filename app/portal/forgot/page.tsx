import { LanguageSwitch } from "@/components/language-switch";
import { getI18n } from "@/lib/i18n/server";
import { canSendMail } from "@/lib/mail/can-send-mail";

export const dynamic = "force-dynamic";

export default async function PortalForgotPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { t, locale } = await getI18n();
  const sent = (await searchParams).sent;
  // Issue 35.4: promise a mail only when one can go.
  const mail = await canSendMail();
  return (
    <main className="sign-in">
      <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
      <div className="card">
        <h1 style={{ fontSize: 20, marginTop: 0 }}>{t("portal.forgot.title")}</h1>
        {!mail ? (
          <div className="msg msg-warn" role="status" data-testid="portal-forgot-no-mail">
            {t("portal.forgot.noMail")}
          </div>
        ) : sent ? (
          <div className="msg msg-ok" role="status">
            {t("portal.forgot.sent")}
          </div>
        ) : (
          <form className="form-grid" method="post" action="/portal/forgot/send">
            <p>{t("portal.forgot.help")}</p>
            <div className="field">
              <label htmlFor="email">{t("portal.common.email")}</label>
              <input id="email" name="email" type="email" autoComplete="username" required />
            </div>
            <div>
              <button type="submit" className="btn btn-primary">
                {t("portal.forgot.submit")}
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
