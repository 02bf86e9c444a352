import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { LanguageSwitch } from "@/components/language-switch";
import { getI18n } from "@/lib/i18n/server";
import { CODE_STEP_COOKIE, readCodeStepTicket } from "@/lib/portal-auth/code-step-ticket";
import { currentBuyer } from "@/lib/portal-auth/require-buyer";
import { getSettings } from "@/lib/settings/get-settings";

export const dynamic = "force-dynamic";

/**
 * Plain forms posting to /portal/session: signing in needs no JavaScript.
 * With two-factor on, the second page asks for the code (while the signed
 * ticket of the first page lasts, lib/portal-auth/code-step-ticket.ts).
 */
export default async function PortalSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentBuyer()) redirect("/portal");
  const { t, locale } = await getI18n();
  const params = await searchParams;
  const ticket = params.step === "code" ? readCodeStepTicket((await cookies()).get(CODE_STEP_COOKIE)?.value) : null;
  const { buyerRegistration } = await getSettings();
  const notice = (text: string, ok: boolean) => (
    <div className={`msg ${ok ? "msg-ok" : "msg-error"}`} role={ok ? "status" : "alert"}>
      {text}
    </div>
  );
  if (ticket) {
    return (
      <main className="sign-in">
        <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
        <div className="card">
          <h1 style={{ fontSize: 20, marginTop: 0 }}>{t("portal.signIn.codeTitle")}</h1>
          <p>{t("portal.link.for", { email: ticket.email })}</p>
          <form className="form-grid" method="post" action="/portal/session" data-testid="portal-code-form">
            <div className="field">
              <label htmlFor="code">{t("portal.signIn.code")}</label>
              <input id="code" name="code" type="text" autoComplete="one-time-code" autoFocus required maxLength={64} />
            </div>
            {params.error ? notice(t("portal.signIn.codeError"), false) : null}
            <div>
              <button type="submit" className="btn btn-primary">
                {t("portal.common.signIn")}
              </button>
            </div>
          </form>
          <p>
            <a href="/portal/sign-in">{t("portal.signIn.startAgain")}</a>
          </p>
        </div>
      </main>
    );
  }
  return (
    <main className="sign-in">
      <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
      <div className="card">
        <h1 style={{ fontSize: 20, marginTop: 0 }}>{t("portal.signIn.title")}</h1>
        {params.signedOut ? notice(t("portal.signIn.signedOut"), true) : null}
        {params.passwordSet ? notice(t("portal.signIn.passwordSet"), true) : null}
        <form className="form-grid" method="post" action="/portal/session" data-testid="portal-sign-in-form">
          <div className="field">
            <label htmlFor="email">{t("portal.common.email")}</label>
            <input id="email" name="email" type="email" autoComplete="username" required />
          </div>
          <div className="field">
            <label htmlFor="password">{t("portal.common.password")}</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required />
          </div>
          {params.error === "expired" || params.step === "code" ? notice(t("portal.signIn.expired"), false) : null}
          {params.error && params.error !== "expired" && params.step !== "code" ? notice(t("portal.signIn.error"), false) : null}
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
