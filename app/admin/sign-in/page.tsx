import { redirect } from "next/navigation";
import { LanguageSwitch } from "@/components/language-switch";
import { currentAdmin } from "@/lib/admin-auth/require-admin";
import { getI18n } from "@/lib/i18n/server";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentAdmin({ passwordChange: "pending-allowed" })) redirect("/admin");
  const { t, locale } = await getI18n();
  const params = await searchParams;
  const errorCode = typeof params.error === "string" ? params.error : undefined;
  const messages = {
    title: t("signIn.title"),
    email: t("signIn.email"),
    password: t("signIn.password"),
    code: t("signIn.code"),
    submit: t("signIn.submit"),
    busy: t("signIn.busy"),
    errors: {
      invalid: t("signIn.error.invalid"),
      totp_required: t("signIn.error.totp_required"),
      locked: t("signIn.error.locked"),
      generic: t("signIn.error.generic"),
    },
  };
  return (
    <main className="sign-in">
      <LanguageSwitch current={locale} label={t("nav.language")} />
      <div className="card">
        <h1 style={{ fontSize: 20, marginTop: 0 }}>{messages.title}</h1>
        {params.signedOut ? (
          <div className="msg msg-ok" role="status">
            {t("signIn.signedOut")}
          </div>
        ) : null}
        {params.passwordChanged ? (
          <div className="msg msg-ok" role="status">
            {t("signIn.passwordChanged")}
          </div>
        ) : null}
        <SignInForm messages={messages} initialError={errorCode} />
      </div>
    </main>
  );
}
