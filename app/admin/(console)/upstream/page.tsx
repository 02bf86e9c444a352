import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listUpstreamConnections } from "@/lib/upstream/list-upstream-connections";
import { addUpstreamAction, importUpstreamAction, pingUpstreamAction, setUpstreamEnabledAction } from "./actions";

export const dynamic = "force-dynamic";

/** Upstream suppliers: list (last ping, balance), add (pinged first), test, import with a markup, enable/disable. Never the secret. */
export default async function UpstreamPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const rows = await listUpstreamConnections();
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
  return (
    <>
      <PageHeader title={t("upstream.title")} description={t("upstream.intro")} />
      <DataTable
        testId="upstream-table"
        columns={[
          { id: "name", header: t("common.name") },
          { id: "baseUrl", header: t("upstream.baseUrl"), wrap: true },
          { id: "profile", header: t("upstream.profile") },
          { id: "apiKey", header: t("apiKeys.key") },
          { id: "status", header: t("common.status") },
          { id: "lastPing", header: t("upstream.lastPing") },
          { id: "balance", header: t("upstream.balance") },
          { id: "products", header: t("upstream.products") },
          { id: "maxWait", header: t("upstream.maxWait") },
        ]}
        rows={rows.map((c) => ({
          id: String(c.id),
          cells: {
            name: `#${c.id} ${c.name}`, baseUrl: c.baseUrl, profile: c.profile, apiKey: c.apiKey,
            status: { text: c.isEnabled ? t("upstream.enabled") : t("upstream.disabled"), badge: c.isEnabled ? "active" : "disabled" },
            lastPing: c.lastPingAt ? `${formatDateTime(new Date(c.lastPingAt))} · ${c.lastPingOk ? t("upstream.ok") : t("upstream.failed")}` : "—",
            balance: c.lastBalance ?? "—", products: String(c.products), maxWait: String(c.maxWaitSeconds),
          },
        }))}
        total={rows.length} pager={false} page={1} pageSize={Math.max(rows.length, 1)} labels={labels}
      />
      <div style={{ height: 16 }} />
      {rows.map((c) => (
        <Card key={c.id} title={`#${c.id} ${c.name}`}>
          <div className="queue-item" data-testid={`upstream-${c.id}`}>
            <ActionForm action={pingUpstreamAction} submitLabel={t("upstream.ping")} variant="plain" keepValues testId={`ping-${c.id}`}>
              <HiddenField name="id" value={String(c.id)} />
            </ActionForm>
            <ActionForm action={setUpstreamEnabledAction} submitLabel={c.isEnabled ? t("upstream.disable") : t("upstream.enable")} variant={c.isEnabled ? "danger" : "plain"} testId={`toggle-${c.id}`}>
              <HiddenField name="id" value={String(c.id)} />
              <HiddenField name="enabled" value={c.isEnabled ? "false" : "true"} />
            </ActionForm>
            <ActionForm action={importUpstreamAction} submitLabel={t("upstream.import")} keepValues testId={`import-${c.id}`}>
              <HiddenField name="id" value={String(c.id)} />
              <TextField name="markupPercent" id={`markup-${c.id}`} label={t("upstream.markup")} defaultValue="10" inputMode="decimal" required />
            </ActionForm>
          </div>
        </Card>
      ))}
      <Card title={t("upstream.add")}>
        <ActionForm action={addUpstreamAction} submitLabel={t("upstream.add")} testId="add-upstream-form">
          <TextField name="name" label={t("common.name")} required />
          <TextField name="baseUrl" type="url" label={t("upstream.baseUrl")} placeholder="https://supplier.example.com" required />
          <div className="field">
            <label htmlFor="f-profile">{t("upstream.profile")}</label>
            <select id="f-profile" name="profile" defaultValue="P"><option value="P">P</option><option value="U">U</option></select>
          </div>
          <TextField name="apiKey" label={t("apiKeys.key")} required autoComplete="off" />
          <TextField name="apiSecret" type="password" label={t("apiKeys.secret")} help={t("upstream.secretHelp")} required autoComplete="new-password" />
          <TextField name="maxWaitSeconds" type="number" label={t("upstream.maxWait")} help={t("upstream.maxWaitHelp")} defaultValue={1800} />
        </ActionForm>
      </Card>
    </>
  );
}
