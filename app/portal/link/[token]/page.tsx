import { LanguageSwitch } from "@/components/language-switch";
import { getI18n } from "@/lib/i18n/server";
import { findUsableLink } from "@/lib/users/set-password-with-link";

export const dynamic = "force-dynamic";

/** An invitation or reset link: the form to choose a password, posting to /portal/set-password. */
export default async function PortalLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  const query = await searchParams;
  const { t, locale } = await getI18n();
  const link = await findUsableLink(token);
  return (
    <main className="sign-in">
      <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
      <div className="card">
        <h1 style={{ fontSize: 20, marginTop: 0 }}>{t("portal.link.title")}</h1>
        {!link ? (
          <div className="msg msg-error" role="alert">
            {t("portal.link.invalid")}
          </div>
        ) : (
          <form className="form-grid" method="post" action="/portal/set-password" data-testid="portal-set-password-form">
            <p>{t("portal.link.for", { email: link.email })}</p>
            <input type="hidden" name="token" value={token} />
            <div className="field">
              <label htmlFor="password">{t("portal.link.password")}</label>
              <input id="password" name="password" type="password" autoComplete="new-password" minLength={10} required />
            </div>
            <div className="field">
              <label htmlFor="confirm">{t("portal.link.confirm")}</label>
              <input id="confirm" name="confirm" type="password" autoComplete="new-password" minLength={10} required />
            </div>
            {query.error === "mismatch" ? (
              <div className="msg msg-error" role="alert">
                {t("portal.link.mismatch")}
              </div>
            ) : null}
            {query.error === "weak" ? (
              <div className="msg msg-error" role="alert">
                {t("portal.link.password")}
              </div>
            ) : null}
            <div>
              <button type="submit" className="btn btn-primary">
                {t("portal.link.submit")}
              </button>
            </div>
          </form>
        )}
      </div>
    </main>
  );
}
