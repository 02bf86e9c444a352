import Link from "next/link";
import { ActionForm } from "@/components/action-form";
import { WholeTable } from "@/components/console-tables";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { getI18n } from "@/lib/i18n/server";
import { DRIVER_NAMES } from "@/lib/payments/drivers/driver";
import { listChannels } from "@/lib/payments/list-channels";
import { notifyUrl } from "@/lib/payments/payment-view";
import { getSettings } from "@/lib/settings/get-settings";
import { addChannelAction, setChannelEnabledAction } from "../actions";

export const dynamic = "force-dynamic";

/**
 * Issue 36: the gateways buyers pay through: each with the notify URL to
 * register at its gateway, a switch, and the form to add one. The secrets a
 * channel is added with are sealed by the service and never shown here.
 */
export default async function PaymentChannelsPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const [channels, settings] = await Promise.all([listChannels(), getSettings()]);
  return (
    <>
      <PageHeader title={t("payments.channels.title")} description={t("payments.channels.help")}>
        <Link className="btn" href="/admin/payments" data-testid="payments-link">
          {t("payments.admin.title")}
        </Link>
      </PageHeader>
      {channels.length === 0 ? (
        <p>{t("payments.channels.none")}</p>
      ) : (
        <WholeTable
          testId="payment-channels-table"
          columns={[
            { id: "name", header: t("payments.channels.name") },
            { id: "driver", header: t("payments.channels.driver"), data: true },
            { id: "currency", header: t("payments.channels.currency"), data: true },
            { id: "limits", header: t("payments.channels.limits") },
            { id: "expire", header: t("payments.channels.expire") },
            { id: "enabled", header: t("payments.channels.enabled") },
            { id: "notifyUrl", header: t("payments.channels.notifyUrl"), wrap: true, data: true },
            { id: "actions", header: t("common.actions") },
          ]}
          rows={channels.map((c) => ({
            id: String(c.id),
            cells: {
              name: `#${c.id} ${c.name}`,
              driver: c.driver,
              currency: c.currency,
              limits: t("payments.pay.limits", { min: c.min, max: c.max }),
              expire: String(c.expire_minutes),
              enabled: { text: c.enabled ? t("common.yes") : t("common.no"), badge: c.enabled ? "active" : "disabled" },
              notifyUrl: notifyUrl(settings.publicBaseUrl, c.id),
              actions: {
                node: (
                  <ActionForm
                    action={setChannelEnabledAction}
                    submitLabel={c.enabled ? t("payments.channels.disable") : t("payments.channels.enable")}
                    variant={c.enabled ? "danger" : "plain"}
                    testId={`toggle-channel-${c.id}`}
                  >
                    <HiddenField name="id" value={String(c.id)} />
                    <HiddenField name="enabled" value={c.enabled ? "false" : "true"} />
                  </ActionForm>
                ),
              },
            },
          }))}
          t={t}
        />
      )}
      <Card title={t("payments.channels.add")}>
        <ActionForm action={addChannelAction} submitLabel={t("payments.channels.add")} testId="add-channel-form">
          <div className="field">
            <label htmlFor="f-driver">{t("payments.channels.driver")}</label>
            <select id="f-driver" name="driver" defaultValue="epay" translate="no">
              {DRIVER_NAMES.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </div>
          <TextField name="name" label={t("payments.channels.name")} required autoComplete="off" />
          <TextField name="gatewayUrl" type="url" label={t("payments.channels.gatewayUrl")} placeholder="https://pay.example.com" />
          <TextField name="merchantId" label={t("payments.channels.merchantId")} autoComplete="off" />
          <TextField name="key" type="password" label={t("payments.channels.key")} required autoComplete="new-password" />
          <TextField name="webhookSecret" type="password" label={t("payments.channels.webhookSecret")} autoComplete="new-password" />
          <TextField name="apiBase" type="url" label={t("payments.channels.apiBase")} />
          <TextField name="currency" label={t("payments.channels.currency")} defaultValue="CNY" required />
          <TextField name="min" label={t("payments.channels.min")} defaultValue="1.00" inputMode="decimal" required />
          <TextField name="max" label={t("payments.channels.max")} defaultValue="50000.00" inputMode="decimal" required />
          <TextField name="expireMinutes" type="number" label={t("payments.channels.expire")} defaultValue={30} required />
        </ActionForm>
      </Card>
    </>
  );
}
