import { Card, PageHeader } from "@/components/page-header";
import { PortalForm } from "@/components/portal-form";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";
import { listTopUps } from "@/lib/top-ups/list-top-ups";
import { formLabels, Table } from "../ui";

export const dynamic = "force-dynamic";

export default async function PortalTopUpsPage() {
  const buyer = await requireBuyer();
  const { t } = await getI18n();
  const requests = await listTopUps({ userId: buyer.userId });
  return (
    <>
      <PageHeader title={t("portal.topUps.title")} description={t("portal.topUps.help")} />
      <Card title={t("portal.topUps.submit")}>
        <PortalForm
          action="/portal/api/top-ups"
          submitLabel={t("portal.topUps.submit")}
          labels={formLabels(t)}
          okMessage={t("portal.topUps.requested")}
          testId="portal-top-up-form"
        >
          <div className="field">
            <label htmlFor="amount">{t("portal.topUps.amount")}</label>
            <input id="amount" name="amount" inputMode="decimal" placeholder="500.00" required />
          </div>
          <div className="field">
            <label htmlFor="transferReference">{t("portal.topUps.reference")}</label>
            <input id="transferReference" name="transferReference" maxLength={100} required />
          </div>
        </PortalForm>
      </Card>
      <Table
        label={t("portal.topUps.title")}
        testId="portal-top-ups"
        none={t("portal.topUps.none")}
        head={[
          "#",
          t("portal.common.time"),
          t("portal.topUps.amount"),
          t("portal.topUps.reference"),
          t("portal.topUps.state"),
          t("portal.topUps.reason"),
        ]}
      >
        {requests.map((r) => (
          <tr key={r.id}>
            <td>{r.id}</td>
            <td>{formatDateTime(r.createdAt)}</td>
            <td>{formatAmount(r.amountCents)}</td>
            <td>{r.transferReference}</td>
            <td data-testid={`top-up-state-${r.id}`}>{t(`portal.topUps.state.${r.state}`)}</td>
            <td>{r.rejectReason ?? ""}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
