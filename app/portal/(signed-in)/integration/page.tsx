import { Card, PageHeader } from "@/components/page-header";
import { CopyButton } from "@/components/copy-button";
import { getI18n } from "@/lib/i18n/server";
import { listBuyerKeys } from "@/lib/portal/buyer-keys";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { pathOf } from "@/lib/protocol/endpoints";
import { ALL_PREFIXES, PROFILE_PREFIXES } from "@/lib/protocol/profiles";
import { getSettings } from "@/lib/settings/get-settings";

export const dynamic = "force-dynamic";

/** The four prefixes of the supplier API (spec section 1), from the one place they are written. */
const PREFIXES = ALL_PREFIXES.map((p) => p.prefix);
/** The example's path: Profile P's primary prefix and the ping endpoint of the table. */
const PING_PATH = PROFILE_PREFIXES.P[0] + pathOf("ping");

/** Everything a shop's developer needs, with this buyer's key id (never a secret). */
export default async function PortalIntegrationPage() {
  const buyer = await requireBuyer();
  const { t } = await getI18n();
  const [{ publicBaseUrl }, keys] = await Promise.all([getSettings(), listBuyerKeys({ userId: buyer.userId })]);
  const key = keys.find((k) => k.isActive)?.apiKey;
  // Spec section 5: METHOD, path, timestamp and the body's MD5 (of "" for a GET), one per line.
  const example = key
    ? [
        `# API_SECRET holds your secret (shown once when the key was made)`,
        `KEY=${key}`,
        `TS=$(date +%s)`,
        `SIG=$(printf 'GET\\n${PING_PATH}\\n%s\\nd41d8cd98f00b204e9800998ecf8427e' "$TS" | openssl dgst -sha256 -hmac "$API_SECRET" | sed 's/^.* //')`,
        `curl -s "${publicBaseUrl}${PING_PATH}" -H "Svc-Api-Key: $KEY" -H "Svc-Timestamp: $TS" -H "Svc-Signature: $SIG"`,
      ].join("\n")
    : "";
  const kit = `npm run conformance -- --base-url ${publicBaseUrl} --api-key ${key ?? "<your key>"} --api-secret-file secret.txt --profile P`;
  return (
    <>
      <PageHeader title={t("portal.integration.title")} />
      <Card>
        <dl className="kv">
          <dt>{t("portal.integration.baseUrl")}</dt>
          <dd>
            <code>{publicBaseUrl}</code>
          </dd>
          <dt>{t("portal.integration.prefixes")}</dt>
          <dd>
            {PREFIXES.map((p) => (
              <div key={p}>
                <code>{p}</code>
              </div>
            ))}
          </dd>
          <dt>{t("portal.integration.docs")}</dt>
          <dd>
            <a href="/docs">/docs</a>
          </dd>
          <dt>{t("portal.integration.openapi")}</dt>
          <dd>
            <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>
          </dd>
        </dl>
      </Card>
      <Card title={t("portal.integration.example")}>
        {key ? (
          <>
            <pre data-testid="portal-example">
              <code>{example}</code>
            </pre>
            <CopyButton value={example} label={t("portal.common.copy")} copiedLabel={t("portal.common.copied")} />
          </>
        ) : (
          <p>{t("portal.integration.noKey")}</p>
        )}
      </Card>
      <Card title={t("portal.integration.kit")}>
        <pre>
          <code>{kit}</code>
        </pre>
      </Card>
    </>
  );
}
