import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getI18n } from "@/lib/i18n/server";
import { CODE_STEP_COOKIE, readCodeStepTicket } from "@/lib/portal-auth/code-step-ticket";
import { currentBuyer } from "@/lib/portal-auth/require-buyer";
import { getSettings } from "@/lib/settings/get-settings";
import { Notice, SignedOutPage, SubmitRow } from "../signed-out";

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
  if (ticket) {
    return (
      <SignedOutPage t={t} locale={locale} title={t("portal.signIn.codeTitle")}>
        <p>{t("portal.link.for", { email: ticket.email })}</p>
        <form className="form-grid" method="post" action="/portal/session" data-testid="portal-code-form">
          <div className="field">
            <label htmlFor="code">{t("portal.signIn.code")}</label>
            <input id="code" name="code" type="text" autoComplete="one-time-code" autoFocus required maxLength={64} />
          </div>
          {params.error ? <Notice kind="error">{t("portal.signIn.codeError")}</Notice> : null}
          <SubmitRow label={t("portal.common.signIn")} />
        </form>
        <p>
          <a href="/portal/sign-in">{t("portal.signIn.startAgain")}</a>
        </p>
      </SignedOutPage>
    );
  }
  return (
    <SignedOutPage t={t} locale={locale} title={t("portal.signIn.title")}>
      {params.signedOut ? <Notice kind="ok">{t("portal.signIn.signedOut")}</Notice> : null}
      {params.passwordSet ? <Notice kind="ok">{t("portal.signIn.passwordSet")}</Notice> : null}
      <form className="form-grid" method="post" action="/portal/session" data-testid="portal-sign-in-form">
        <div className="field">
          <label htmlFor="email">{t("portal.common.email")}</label>
          <input id="email" name="email" type="email" autoComplete="username" required />
        </div>
        <div className="field">
          <label htmlFor="password">{t("portal.common.password")}</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        {params.error === "expired" || params.step === "code" ? <Notice kind="error">{t("portal.signIn.expired")}</Notice> : null}
        {params.error && params.error !== "expired" && params.step !== "code" ? (
          <Notice kind="error">{t("portal.signIn.error")}</Notice>
        ) : null}
        <SubmitRow label={t("portal.common.signIn")} />
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
    </SignedOutPage>
  );
}
