import type { ReactNode } from "react";
import { LanguageSwitch } from "@/components/language-switch";
import type { Locale, Translate } from "@/lib/i18n/messages";

// The frame of the portal's signed-out pages (sign in, forgot, register, an
// invitation or reset link): plain forms that post without JavaScript.

/** The page: a language switch, then one card with its title. */
export function SignedOutPage({ t, locale, title, children }: { t: Translate; locale: Locale; title: string; children: ReactNode }) {
  return (
    <main className="sign-in">
      <LanguageSwitch current={locale} label={t("nav.language")} base="/portal" />
      <div className="card">
        <h1 style={{ fontSize: 20, marginTop: 0 }}>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** A message on the page: a status when it is good news or a warning, an alert when something went wrong. */
export function Notice({ kind, children, testId }: { kind: "ok" | "warn" | "error"; children: ReactNode; testId?: string }) {
  return (
    <div className={`msg msg-${kind}`} role={kind === "error" ? "alert" : "status"} data-testid={testId}>
      {children}
    </div>
  );
}

/** A form's primary button, on its own row. */
export function SubmitRow({ label }: { label: string }) {
  return (
    <div>
      <button type="submit" className="btn btn-primary">
        {label}
      </button>
    </div>
  );
}

/** A form asking only for an e-mail address (forgot password, register). */
export function EmailForm({ t, action, help, submit }: { t: Translate; action: string; help: string; submit: string }) {
  return (
    <form className="form-grid" method="post" action={action}>
      <p>{help}</p>
      <div className="field">
        <label htmlFor="email">{t("portal.common.email")}</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
      </div>
      <SubmitRow label={submit} />
    </form>
  );
}

/** The link back to signing in. */
export function BackToSignIn({ t }: { t: Translate }) {
  return (
    <p>
      <a href="/portal/sign-in">{t("portal.common.signIn")}</a>
    </p>
  );
}
