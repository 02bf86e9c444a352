import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listHeldProducts } from "@/lib/upstream/list-held-products";
import { listUpstreamConnections } from "@/lib/upstream/list-upstream-connections";
import {
  acceptHeldProductAction,
  addUpstreamAction,
  importUpstreamAction,
  pingUpstreamAction,
  setUpstreamEnabledAction,
  setUpstreamMaxCostAction,
} from "./actions";

export const dynamic = "force-dynamic";

/**
 * Upstream suppliers: list (last ping, balance), add (pinged first), test,
 * import with a markup, enable/disable; products held for their price, each
 * with its accept button, and the per-SKU maximum cost (issue 22.1). Never the secret.
 */
export default async function UpstreamPage() {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const rows = await listUpstreamConnections();
  const held = await listHeldProducts();
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
          { id: "apiKey", header: t("apiKeys.key"), data: true },
          { id: "status", header: t("common.status") },
          { id: "lastPing", header: t("upstream.lastPing") },
          { id: "balance", header: t("upstream.balance") },
          { id: "products", header: t("upstream.products") },
          { id: "maxWait", header: t("upstream.maxWait") },
        ]}
        rows={rows.map((c) => ({
          id: String(c.id),
          cells: {
            name: `#${c.id} ${c.name}`,
            baseUrl: c.baseUrl,
            profile: c.protocol === "dujiao_next" ? t("upstream.protocolDujiao") : c.profile,
            apiKey: c.apiKey,
            status: { text: c.isEnabled ? t("upstream.enabled") : t("upstream.disabled"), badge: c.isEnabled ? "active" : "disabled" },
            lastPing: c.lastPingAt
              ? `${formatDateTime(new Date(c.lastPingAt))} · ${c.lastPingOk ? t("upstream.ok") : t("upstream.failed")}`
              : "—",
            balance: c.lastBalance ?? "—",
            products: String(c.products),
            maxWait: String(c.maxWaitSeconds),
          },
        }))}
        total={rows.length}
        pager={false}
        page={1}
        pageSize={Math.max(rows.length, 1)}
        labels={labels}
      />
      <div style={{ height: 16 }} />
      {rows.map((c) => (
        <Card key={c.id} title={`#${c.id} ${c.name}`}>
          <div className="queue-item" data-testid={`upstream-${c.id}`}>
            <ActionForm action={pingUpstreamAction} submitLabel={t("upstream.ping")} variant="plain" keepValues testId={`ping-${c.id}`}>
              <HiddenField name="id" value={String(c.id)} />
            </ActionForm>
            <ActionForm
              action={setUpstreamEnabledAction}
              submitLabel={c.isEnabled ? t("upstream.disable") : t("upstream.enable")}
              variant={c.isEnabled ? "danger" : "plain"}
              testId={`toggle-${c.id}`}
            >
              <HiddenField name="id" value={String(c.id)} />
              <HiddenField name="enabled" value={c.isEnabled ? "false" : "true"} />
            </ActionForm>
            <ActionForm action={importUpstreamAction} submitLabel={t("upstream.import")} keepValues testId={`import-${c.id}`}>
              <HiddenField name="id" value={String(c.id)} />
              <TextField
                name="markupPercent"
                id={`markup-${c.id}`}
                label={t("upstream.markup")}
                defaultValue="10"
                inputMode="decimal"
                required
              />
            </ActionForm>
          </div>
        </Card>
      ))}
      <Card title={t("upstream.held")}>
        <p>{t("upstream.heldIntro")}</p>
        {held.length === 0 ? <p>{t("upstream.heldNone")}</p> : null}
        {held.map((h) => (
          <div key={h.productId} className="queue-item" data-testid={`held-${h.productId}`}>
            <dl className="kv">
              <dt>{t("orders.product")}</dt>
              <dd>
                #{h.productId} {pickText(h.title, locale)} (
                {t("upstream.skippedProduct", { id: h.upstreamProductId ?? "?", reason: h.reason })})
              </dd>
              <dt>{t("upstream.heldPrices")}</dt>
              <dd>{[h.price, ...h.skus.map((s) => `${s.skuCode} (#${s.skuId}): ${s.price}`)].join(" · ")}</dd>
            </dl>
            <ActionForm
              action={acceptHeldProductAction}
              submitLabel={t("upstream.accept")}
              variant="danger"
              testId={`accept-${h.productId}`}
            >
              <HiddenField name="productId" value={String(h.productId)} />
            </ActionForm>
          </div>
        ))}
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("upstream.maxCost")}>
        <ActionForm action={setUpstreamMaxCostAction} submitLabel={t("common.save")} testId="max-cost-form">
          <TextField name="skuId" label={t("upstream.maxCostSku")} inputMode="numeric" required />
          <TextField name="maxCost" label={t("upstream.maxCostAmount")} help={t("upstream.maxCostHelp")} inputMode="decimal" />
        </ActionForm>
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("upstream.add")}>
        <ActionForm action={addUpstreamAction} submitLabel={t("upstream.add")} testId="add-upstream-form">
          <TextField name="name" label={t("common.name")} required />
          <TextField name="baseUrl" type="url" label={t("upstream.baseUrl")} placeholder="https://supplier.example.com" required />
          <div className="field">
            <label htmlFor="f-protocol">{t("upstream.protocol")}</label>
            <select id="f-protocol" name="protocol" defaultValue="svc" aria-describedby="f-protocol-help">
              <option value="svc">{t("upstream.protocolSvc")}</option>
              <option value="dujiao-next">{t("upstream.protocolDujiao")}</option>
            </select>
            <p className="help" id="f-protocol-help">
              {t("upstream.protocolHelp")}
            </p>
          </div>
          <div className="field">
            <label htmlFor="f-profile">{t("upstream.profile")}</label>
            <select id="f-profile" name="profile" defaultValue="P">
              <option value="P">P</option>
              <option value="U">U</option>
            </select>
          </div>
          <TextField name="apiKey" label={t("apiKeys.key")} required autoComplete="off" />
          <TextField
            name="apiSecret"
            type="password"
            label={t("apiKeys.secret")}
            help={t("upstream.secretHelp")}
            required
            autoComplete="new-password"
          />
          <TextField
            name="maxWaitSeconds"
            type="number"
            label={t("upstream.maxWait")}
            help={t("upstream.maxWaitHelp")}
            defaultValue={1800}
          />
        </ActionForm>
      </Card>
    </>
  );
}
