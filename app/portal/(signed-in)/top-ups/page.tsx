import { Card, PageHeader } from "@/components/page-header";
import { PortalForm } from "@/components/portal-form";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";
import { listTopUps } from "@/lib/top-ups/list-top-ups";
import { listBuyerPayments } from "@/lib/payments/get-buyer-payment";
import { listOpenChannels } from "@/lib/payments/list-channels";
import { formLabels, Table } from "../ui";

export const dynamic = "force-dynamic";

export default async function PortalTopUpsPage() {
  const buyer = await requireBuyer();
  const { t } = await getI18n();
  const [requests, channels, payments] = await Promise.all([
    listTopUps({ userId: buyer.userId }),
    listOpenChannels(),
    listBuyerPayments(buyer.userId),
  ]);
  return (
    <>
      <PageHeader title={t("payments.pay.title")} description={t("payments.pay.help")} />
      <Card>
        {channels.length === 0 ? (
          <p>{t("payments.pay.noChannels")}</p>
        ) : (
          <PortalForm
            action="/portal/api/payments"
            submitLabel={t("payments.pay.submit")}
            labels={formLabels(t)}
            okMessage={t("payments.pay.going")}
            openUrlFrom="pay_url"
            testId="portal-pay-form"
          >
            <div className="field">
              <label htmlFor="channel_id">{t("payments.pay.channel")}</label>
              <select id="channel_id" name="channel_id" required>
                {channels.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({t("payments.pay.limits", { min: formatAmount(c.minCents), max: formatAmount(c.maxCents) })})
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="pay-amount">{t("payments.pay.amount")}</label>
              <input id="pay-amount" name="amount" inputMode="decimal" placeholder="100.00" required />
            </div>
          </PortalForm>
        )}
      </Card>
      <Table
        label={t("payments.list.title")}
        testId="portal-payments"
        none={t("payments.list.none")}
        head={[t("payments.no"), t("portal.common.time"), t("payments.amount"), t("payments.state")]}
      >
        {payments.map((p) => (
          <tr key={p.payment_no}>
            <td>
              <a href={`/portal/top-ups/${encodeURIComponent(p.payment_no)}`} translate="no">
                {p.payment_no}
              </a>
            </td>
            <td>{formatDateTime(new Date(p.created_at))}</td>
            <td>{p.amount}</td>
            <td data-testid={`payment-state-${p.payment_no}`}>{t(`payments.state.${p.state}`)}</td>
          </tr>
        ))}
      </Table>
      <Card title={t("portal.topUps.title")}>
        <p>{t("portal.topUps.help")}</p>
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
