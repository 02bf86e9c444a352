import { getI18n } from "@/lib/i18n/server";
import { getSettings } from "@/lib/settings/get-settings";
import { BackToSignIn, EmailForm, Notice, SignedOutPage } from "../signed-out";

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
    <SignedOutPage t={t} locale={locale} title={t("portal.register.title")}>
      {buyerRegistration !== "approval" ? (
        <Notice kind="warn">{t("portal.register.closed")}</Notice>
      ) : done ? (
        <Notice kind="ok">{t("portal.register.done")}</Notice>
      ) : (
        <EmailForm t={t} action="/portal/register/send" help={t("portal.register.help")} submit={t("portal.register.submit")} />
      )}
      <BackToSignIn t={t} />
    </SignedOutPage>
  );
}
