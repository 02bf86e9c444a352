import { Card, PageHeader } from "@/components/page-header";
import { PortalForm } from "@/components/portal-form";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listBuyerSessions } from "@/lib/portal-auth/buyer-session";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formLabels } from "../ui";

export const dynamic = "force-dynamic";

/** The buyer's signed-in sessions, each of which can be ended (decision 0038). Password changes go through a reset link. */
export default async function PortalAccountPage() {
  const buyer = await requireBuyer();
  const { t } = await getI18n();
  const sessions = await listBuyerSessions(buyer.userId);
  return (
    <>
      <PageHeader title={t("portal.account.title")} description={buyer.email} />
      <Card title={t("portal.account.sessions")}>
        <ul>
          {sessions.map((s) => (
            <li key={s.id}>
              {s.ip ?? "?"} · {t("portal.account.started")} {formatDateTime(s.createdAt)} · {t("portal.account.lastSeen")}{" "}
              {formatDateTime(s.lastSeenAt)}
              {s.id === buyer.sessionId ? (
                ` · ${t("portal.account.thisSession")}`
              ) : (
                <PortalForm
                  action={`/portal/api/sessions/${s.id}/end`}
                  submitLabel={t("portal.account.end")}
                  variant="plain"
                  labels={formLabels(t)}
                  okMessage={t("portal.account.ended")}
                />
              )}
            </li>
          ))}
        </ul>
        <p>
          <a href="/portal/forgot">{t("portal.signIn.forgot")}</a>
        </p>
      </Card>
    </>
  );
}
