import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextField, Toggle } from "@/components/form-fields";
import { ChannelFields } from "./channel-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { alertThresholds } from "@/lib/alerts/alert-context";
import { CHANNEL_KINDS } from "@/lib/alerts/add-channel";
import { ALERT_KIND_NAMES, hasThreshold } from "@/lib/alerts/event-kinds";
import { listAlertChannels } from "@/lib/alerts/list-channels";
import { listAlerts } from "@/lib/alerts/list-alerts";
import { SMTP_SECURITY } from "@/lib/alerts/smtp-url";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import {
  addChannelAction,
  removeChannelAction,
  setChannelRulesAction,
  setSkuThresholdAction,
  setThresholdsAction,
  setUpstreamBalanceAction,
  testChannelAction,
} from "./actions";

export const dynamic = "force-dynamic";

type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** What a channel sends to, from its non-secret settings. */
function target(c: { kind: string; config: Record<string, unknown> }): string {
  if (c.kind === "telegram") return `chat ${String(c.config.chatId)} · ${String(c.config.apiBase)}`;
  if (c.kind === "email") return `${String(c.config.from)} → ${(c.config.to as string[]).join(", ")}`;
  return String(c.config.host);
}

/**
 * Issue 25: alert channels (add, test at once, remove, events on/off), the
 * site-wide thresholds, per-SKU and per-upstream thresholds, and the last 500
 * alerts with their channel, state and error. Never a secret.
 */
export default async function AlertsPage() {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const [channels, thresholds, history] = await Promise.all([listAlertChannels(), alertThresholds(), listAlerts(500, locale)]);
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
  return (
    <>
      <PageHeader title={t("alerts.title")} description={t("alerts.intro")} />
      <Card title={t("alerts.channels")}>
        {channels.length === 0 ? <p>{t("alerts.noChannels")}</p> : null}
        {channels.map((c) => (
          <div key={c.id} className="queue-item" data-testid={`alert-channel-${c.id}`}>
            <dl className="kv">
              <dt>{t("common.name")}</dt>
              <dd>
                #{c.id} {c.name}
              </dd>
              <dt>{t("alerts.kind")}</dt>
              <dd>{t(`alerts.channelKind.${c.kind as ChannelKind}`)}</dd>
              <dt>{t("alerts.target")}</dt>
              <dd>{target(c)}</dd>
              <dt>{t("common.status")}</dt>
              <dd>{c.failing ? t("alerts.failing") : t("alerts.working")}</dd>
              <dt>{t("alerts.lastOk")}</dt>
              <dd>{c.last_ok_at ? formatDateTime(new Date(c.last_ok_at)) : "—"}</dd>
              <dt>{t("alerts.lastError")}</dt>
              {/* A stored setting refused by today's rules (issue 33.1) is an error without a date. */}
              <dd>
                {c.last_error
                  ? [c.last_error_at && formatDateTime(new Date(c.last_error_at)), c.last_error].filter(Boolean).join(" · ")
                  : "—"}
              </dd>
            </dl>
            <ActionForm
              action={testChannelAction}
              submitLabel={t("alerts.test")}
              variant="plain"
              keepValues
              testId={`test-channel-${c.id}`}
            >
              <HiddenField name="id" value={String(c.id)} />
            </ActionForm>
            <ActionForm action={setChannelRulesAction} submitLabel={t("common.save")} variant="plain" testId={`rules-${c.id}`}>
              <HiddenField name="id" value={String(c.id)} />
              <p>{t("alerts.rules")}</p>
              {ALERT_KIND_NAMES.map((k) => (
                <Toggle key={k} name={k} label={t(`alerts.kind.${k}`)} defaultChecked={c.rules[k]} />
              ))}
            </ActionForm>
            <ActionForm action={removeChannelAction} submitLabel={t("alerts.remove")} variant="danger" testId={`remove-channel-${c.id}`}>
              <HiddenField name="id" value={String(c.id)} />
            </ActionForm>
          </div>
        ))}
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("alerts.add")}>
        <ActionForm action={addChannelAction} submitLabel={t("alerts.add")} testId="add-channel-form">
          <ChannelFields
            kinds={CHANNEL_KINDS.map((k) => ({ value: k, label: t(`alerts.channelKind.${k}`) }))}
            security={SMTP_SECURITY.map((v) => ({ value: v, label: t(`alerts.smtpSecurity.${v}`) }))}
            labels={{
              kind: t("alerts.kind"),
              kindHelp: t("alerts.kindHelp"),
              name: t("common.name"),
              botToken: t("alerts.botToken"),
              secretHelp: t("alerts.secretHelp"),
              chatId: t("alerts.chatId"),
              apiBase: t("alerts.apiBase"),
              smtpHost: t("alerts.smtpHost"),
              smtpPort: t("alerts.smtpPort"),
              smtpSecurity: t("alerts.smtpSecurity"),
              smtpUser: t("alerts.smtpUser"),
              smtpPassword: t("alerts.smtpPassword"),
              smtpUrl: t("alerts.smtpUrl"),
              from: t("alerts.from"),
              to: t("alerts.to"),
              url: t("alerts.url"),
            }}
          />
        </ActionForm>
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("alerts.thresholds")}>
        <ActionForm action={setThresholdsAction} submitLabel={t("common.save")} keepValues testId="thresholds-form">
          {ALERT_KIND_NAMES.filter(hasThreshold).map((k) => (
            <TextField key={k} name={k} label={t(`alerts.threshold.${k}`)} defaultValue={thresholds[k]} inputMode="numeric" />
          ))}
        </ActionForm>
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("alerts.skuThreshold")}>
        <ActionForm action={setSkuThresholdAction} submitLabel={t("common.save")} testId="sku-threshold-form">
          <TextField name="skuCode" label={t("alerts.skuCode")} required />
          <TextField name="stock" label={t("alerts.skuStock")} inputMode="numeric" />
        </ActionForm>
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("alerts.balanceAlert")}>
        <ActionForm action={setUpstreamBalanceAction} submitLabel={t("common.save")} testId="balance-alert-form">
          <TextField name="connectionId" label={t("alerts.connection")} inputMode="numeric" required />
          <TextField name="below" label={t("alerts.below")} inputMode="decimal" />
        </ActionForm>
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("alerts.history")}>
        <DataTable
          testId="alerts-table"
          columns={[
            { id: "time", header: t("alerts.time") },
            { id: "event", header: t("alerts.event") },
            { id: "text", header: t("alerts.text"), wrap: true },
            { id: "channel", header: t("alerts.channel") },
            { id: "state", header: t("alerts.state") },
            { id: "error", header: t("alerts.error"), wrap: true },
          ]}
          rows={history.map((r, i) => ({
            id: `${r.id}-${i}`,
            cells: {
              time: formatDateTime(new Date(r.created_at)),
              event: r.title,
              text: r.text,
              channel: r.channel ?? "—",
              state: t(`alerts.state.${r.channel === null ? "none" : (r.state as "pending" | "sent" | "folded" | "failed")}`),
              error: r.error ?? "",
            },
          }))}
          total={history.length}
          pager={false}
          page={1}
          pageSize={Math.max(history.length, 1)}
          labels={labels}
        />
      </Card>
    </>
  );
}
