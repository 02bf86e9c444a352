import Link from "next/link";
import { getI18n } from "@/lib/i18n/server";
import { canSendMail } from "@/lib/mail/can-send-mail";

/**
 * Issue 35.4: on the pages where buyers are invited and the site is set up,
 * the operator is told when no e-mail can be sent: invitations and
 * password-reset links then reach no one by mail.
 */
export async function NoMailBanner() {
  if (await canSendMail()) return null;
  const { t } = await getI18n();
  return (
    <div className="msg msg-warn" role="status" data-testid="no-mail-banner">
      {t("settings.noMail")} <Link href="/admin/alerts">{t("settings.noMailAction")}</Link>
    </div>
  );
}
