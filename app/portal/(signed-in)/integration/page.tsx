import { Card, PageHeader } from "@/components/page-header";
import { CopyButton } from "@/components/copy-button";
import { downloadPath } from "@/lib/api-docs/downloads";
import { pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listBuyerKeys } from "@/lib/portal/buyer-keys";
import { clientOrderExample, curlOrderExample } from "@/lib/portal/integration-examples";
import { getPriceList, stockBand } from "@/lib/portal/price-list";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { getSettings } from "@/lib/settings/get-settings";

export const dynamic = "force-dynamic";

/** The four prefixes of the supplier API (spec section 1), from the one place they are written. */
const PREFIXES = ALL_PREFIXES.map((p) => p.prefix);

/** Everything a shop's developer needs, with this buyer's key id (never a secret) and a SKU it can order (issue 35.1). */
export default async function PortalIntegrationPage() {
  const buyer = await requireBuyer();
  const { t, locale } = await getI18n();
  const [{ publicBaseUrl }, keys, prices] = await Promise.all([
    getSettings(),
    listBuyerKeys({ userId: buyer.userId }),
    getPriceList({ userId: buyer.userId }),
  ]);
  const key = keys.find((k) => k.isActive)?.apiKey;
  const sku = prices.rows.find((r) => stockBand(r.stock) !== "out_of_stock") ?? prices.rows[0];
  const input = { baseUrl: publicBaseUrl, apiKey: key ?? "", skuId: sku?.skuId ?? null };
  const curl = curlOrderExample(input);
  const client = clientOrderExample(input);
  const kit = `node supplier-conformance.mjs --base-url ${publicBaseUrl} --api-key ${key ?? "<your key>"} --api-secret-file secret.txt --profile P`;
  const copy = { label: t("portal.common.copy"), copiedLabel: t("portal.common.copied") };
  return (
    <>
      <PageHeader title={t("portal.integration.title")} />
      <Card>
        <dl className="kv">
          <dt>{t("portal.integration.baseUrl")}</dt>
          <dd>
            <code translate="no">{publicBaseUrl}</code>
          </dd>
          <dt>{t("portal.integration.prefixes")}</dt>
          <dd>
            {PREFIXES.map((p) => (
              <div key={p}>
                <code translate="no">{p}</code>
              </div>
            ))}
          </dd>
          <dt>{t("portal.integration.docs")}</dt>
          <dd translate="no">
            <a href="/docs">/docs</a>
          </dd>
          <dt>{t("portal.integration.openapi")}</dt>
          <dd translate="no">
            <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>
          </dd>
        </dl>
      </Card>
      <Card title={t("portal.integration.downloads")}>
        <ul data-testid="portal-downloads">
          <li>
            <a href={downloadPath("protocol.md")}>{t("portal.integration.guide")}</a>
          </li>
          <li>
            <a href={downloadPath("decisions.md")}>{t("portal.integration.decisions")}</a>
          </li>
          <li>
            <a href={downloadPath("supplier-client.mjs")} download>
              {t("portal.integration.client")} <code translate="no">supplier-client.mjs</code>
            </a>
          </li>
          <li>
            <a href={downloadPath("supplier-conformance.mjs")} download>
              {t("portal.integration.kitFile")} <code translate="no">supplier-conformance.mjs</code>
            </a>
          </li>
        </ul>
      </Card>
      <Card title={t("portal.integration.example")}>
        {key ? (
          <>
            {sku ? <p>{t("portal.integration.sku", { skuId: sku.skuId, product: pickText(sku.productTitle, locale) })}</p> : null}
            <pre className="example" tabIndex={0} data-testid="portal-example" translate="no">
              <code translate="no">{curl}</code>
            </pre>
            <CopyButton value={curl} {...copy} />
          </>
        ) : (
          <p>{t("portal.integration.noKey")}</p>
        )}
      </Card>
      {key ? (
        <Card title={t("portal.integration.clientExample")}>
          <pre className="example" tabIndex={0} data-testid="portal-client-example" translate="no">
            <code translate="no">{client}</code>
          </pre>
          <CopyButton value={client} {...copy} />
        </Card>
      ) : null}
      <Card title={t("portal.integration.kit")}>
        <pre className="example" tabIndex={0} translate="no">
          <code translate="no">{kit}</code>
        </pre>
      </Card>
    </>
  );
}
