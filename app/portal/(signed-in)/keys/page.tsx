import { Card, PageHeader } from "@/components/page-header";
import { PortalForm } from "@/components/portal-form";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listBuyerKeys } from "@/lib/portal/buyer-keys";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { ENDPOINTS, pathOf } from "@/lib/protocol/endpoints";
import { PROFILE_PREFIXES } from "@/lib/protocol/profiles";
import { formLabels } from "../ui";

export const dynamic = "force-dynamic";

/** How a key registers its catalogue webhook, from the endpoint table (a Profile U extension). */
const WEBHOOK_ENDPOINT = { method: ENDPOINTS.putCatalogWebhook.method, path: pathOf("putCatalogWebhook"), prefix: PROFILE_PREFIXES.U[0] };

/** The buyer's API keys: create (secret shown once), rotate with an overlap, disable, the catalogue webhook and its deliveries. */
export default async function PortalKeysPage() {
  const buyer = await requireBuyer();
  const { t } = await getI18n();
  const keys = await listBuyerKeys({ userId: buyer.userId });
  const labels = formLabels(t);
  return (
    <>
      <PageHeader title={t("portal.keys.title")} />
      <Card title={t("portal.keys.create")}>
        <PortalForm
          action="/portal/api/keys"
          submitLabel={t("portal.keys.create")}
          labels={labels}
          okMessage={t("portal.keys.created")}
          testId="portal-create-key-form"
        >
          <div className="field">
            <label htmlFor="key-name">{t("portal.keys.name")}</label>
            <input id="key-name" name="name" maxLength={100} />
          </div>
        </PortalForm>
      </Card>
      {keys.length === 0 ? (
        <p>{t("portal.keys.none")}</p>
      ) : (
        keys.map((k) => (
          <Card key={k.id} title={`${k.name || k.apiKey}`}>
            <dl className="kv" data-testid={`portal-key-${k.apiKey}`}>
              <dt>{t("portal.keys.keyLabel")}</dt>
              <dd>
                <code translate="no">{k.apiKey}</code>
              </dd>
              <dt>{t("portal.orders.status")}</dt>
              <dd>{k.isActive ? t("portal.keys.active") : t("portal.keys.disabled")}</dd>
              <dt>{t("portal.keys.lastUsed")}</dt>
              <dd>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t("portal.keys.never")}</dd>
              {k.previousSecretUntil ? (
                <>
                  <dt>{t("portal.keys.rotate")}</dt>
                  <dd>{t("portal.keys.overlapUntil", { time: formatDateTime(k.previousSecretUntil) })}</dd>
                </>
              ) : null}
            </dl>
            {k.isActive ? (
              <div className="btn-row">
                <PortalForm
                  action={`/portal/api/keys/${encodeURIComponent(k.apiKey)}/rotate`}
                  submitLabel={t("portal.keys.rotate")}
                  labels={labels}
                  okMessage={t("portal.keys.rotated")}
                  testId="portal-rotate-key-form"
                >
                  <div className="field">
                    <label htmlFor={`overlap-${k.id}`}>{t("portal.keys.overlap")}</label>
                    <input id={`overlap-${k.id}`} name="overlapHours" type="number" min={0} max={72} defaultValue={24} required />
                  </div>
                </PortalForm>
                <PortalForm
                  action={`/portal/api/keys/${encodeURIComponent(k.apiKey)}/disable`}
                  submitLabel={t("portal.keys.disable")}
                  variant="danger"
                  labels={labels}
                  okMessage={t("portal.keys.disabledOk")}
                  testId="portal-disable-key-form"
                />
              </div>
            ) : null}
            <h3>{t("portal.keys.webhook")}</h3>
            {k.catalogWebhook ? (
              <p>
                <code translate="no">{k.catalogWebhook.url}</code>
              </p>
            ) : (
              <p>{t("portal.keys.noWebhook", WEBHOOK_ENDPOINT)}</p>
            )}
            {k.catalogEvents.length ? (
              <>
                <h4>{t("portal.keys.deliveries")}</h4>
                <ul>
                  {k.catalogEvents.map((e) => (
                    <li key={e.id}>
                      #{e.id} · {formatDateTime(e.createdAt)} · {t(`jobs.delivery.${e.status}`)} ·{" "}
                      {t("portal.keys.attempts", { count: e.attemptCount })}
                      {e.lastError ? ` · ${e.lastError}` : ""}
                      {e.status === "failed" || e.status === "delivered" ? (
                        <PortalForm
                          action={`/portal/api/catalog-events/${e.id}/resend`}
                          submitLabel={t("portal.keys.sendAgain")}
                          variant="plain"
                          labels={labels}
                          okMessage={t("portal.keys.sent")}
                        />
                      ) : null}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </Card>
        ))
      )}
    </>
  );
}
