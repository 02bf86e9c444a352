import { getI18n } from "@/lib/i18n/server";
import { findUsableLink } from "@/lib/users/set-password-with-link";
import { Notice, SignedOutPage, SubmitRow } from "../../signed-out";

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
    <SignedOutPage t={t} locale={locale} title={t("portal.link.title")}>
      {!link ? (
        <Notice kind="error">{t("portal.link.invalid")}</Notice>
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
          {query.error === "mismatch" ? <Notice kind="error">{t("portal.link.mismatch")}</Notice> : null}
          {query.error === "weak" ? <Notice kind="error">{t("portal.link.password")}</Notice> : null}
          <SubmitRow label={t("portal.link.submit")} />
        </form>
      )}
    </SignedOutPage>
  );
}
