import { getI18n } from "@/lib/i18n/server";
import { canSendMail } from "@/lib/mail/can-send-mail";
import { BackToSignIn, EmailForm, Notice, SignedOutPage } from "../signed-out";

export const dynamic = "force-dynamic";

export default async function PortalForgotPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { t, locale } = await getI18n();
  const sent = (await searchParams).sent;
  // Issue 35.4: promise a mail only when one can go.
  const mail = await canSendMail();
  return (
    <SignedOutPage t={t} locale={locale} title={t("portal.forgot.title")}>
      {!mail ? (
        <Notice kind="warn" testId="portal-forgot-no-mail">
          {t("portal.forgot.noMail")}
        </Notice>
      ) : sent ? (
        <Notice kind="ok">{t("portal.forgot.sent")}</Notice>
      ) : (
        <EmailForm t={t} action="/portal/forgot/send" help={t("portal.forgot.help")} submit={t("portal.forgot.submit")} />
      )}
      <BackToSignIn t={t} />
    </SignedOutPage>
  );
}
