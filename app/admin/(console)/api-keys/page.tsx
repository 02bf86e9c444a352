import { ActionForm } from "@/components/action-form";
import { apiKeyRows } from "@/components/api-key-list";
import { catalogWebhookCell } from "@/components/catalog-webhook-cell";
import { PagedTable } from "@/components/console-tables";
import { TextField, Toggle } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { SearchBar } from "@/components/search-bar";
import { openListPage, type ListPageProps } from "@/lib/admin-auth/open-list-page";
import { API_KEY_SORTS, listApiKeys } from "@/lib/admin-views/list-api-keys";
import { one } from "@/lib/admin-views/paging";
import { formatDateTime } from "@/lib/i18n/format";
import { createApiKeyAction, disableApiKeyAction, removeCatalogWebhookAction, rotateApiKeyAction, setAcgSwitchAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage({ searchParams }: ListPageProps) {
  const { t, params, paging, q } = await openListPage(searchParams, API_KEY_SORTS, "createdAt");
  const { total, rows } = await listApiKeys({ paging, q });
  return (
    <>
      <PageHeader title={t("apiKeys.title")} />
      <Card title={t("apiKeys.create")}>
        <ActionForm
          action={createApiKeyAction}
          submitLabel={t("apiKeys.create")}
          copyLabel={t("common.copy")}
          copiedLabel={t("common.copied")}
          testId="create-key-form"
        >
          <TextField name="email" type="email" label={t("apiKeys.forUser")} defaultValue={one(params, "email")} required />
          <TextField name="name" label={t("common.name")} />
        </ActionForm>
      </Card>
      <Card title={t("apiKeys.rotate")}>
        <ActionForm
          action={rotateApiKeyAction}
          submitLabel={t("apiKeys.rotate")}
          copyLabel={t("common.copy")}
          copiedLabel={t("common.copied")}
          testId="rotate-key-form"
        >
          <TextField name="apiKey" id="rotate-apiKey" label={t("apiKeys.key")} placeholder="sk_…" required autoComplete="off" />
        </ActionForm>
      </Card>
      <Card title={t("apiKeys.acg")}>
        {/* Issue 37.2: said plainly before the switch, not hidden in a help page. */}
        <p className="msg msg-warn" data-testid="acg-warning">
          {t("apiKeys.acgWarning")}
        </p>
        <ActionForm
          action={setAcgSwitchAction}
          submitLabel={t("apiKeys.acgSave")}
          copyLabel={t("common.copy")}
          copiedLabel={t("common.copied")}
          testId="acg-switch-form"
        >
          <TextField name="apiKey" id="acg-apiKey" label={t("apiKeys.key")} placeholder="sk_…" required autoComplete="off" />
          <Toggle name="acg" label={t("apiKeys.acgOn")} />
        </ActionForm>
      </Card>
      <SearchBar q={q} placeholder={`${t("apiKeys.key")} / ${t("common.email")}`} submitLabel={t("common.search")} />
      <PagedTable
        testId="api-keys-table"
        columns={[
          // Issue 35.3: the Disable action beside the key and its state, in sight at 1366 px without scrolling the table.
          { id: "apiKey", header: t("apiKeys.key"), data: true },
          { id: "status", header: t("common.status") },
          { id: "actions", header: t("common.actions") },
          { id: "name", header: t("common.name") },
          { id: "owner", header: t("apiKeys.owner") },
          { id: "webhook", header: t("apiKeys.webhook"), wrap: true },
          { id: "acg", header: t("apiKeys.acgColumn") },
          { id: "lastUsedAt", header: t("apiKeys.lastUsed"), sortable: true },
          { id: "createdAt", header: t("common.created"), sortable: true },
        ]}
        rows={apiKeyRows(
          rows.map((k) => ({
            id: k.id,
            apiKey: k.apiKey,
            name: k.name,
            isActive: k.isActive,
            owner: k.user,
            lastUsed: k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t("apiKeys.never"),
            created: formatDateTime(k.createdAt),
          })),
          { active: t("apiKeys.active"), disabled: t("apiKeys.disabled"), disable: t("apiKeys.disable") },
          disableApiKeyAction,
        ).map((row, i) => ({
          ...row,
          cells: {
            ...row.cells,
            acg: rows[i].acgEnabled ? t("apiKeys.acgEnabled") : t("apiKeys.acgDisabled"),
            webhook: catalogWebhookCell(
              { apiKey: rows[i].apiKey, url: rows[i].catalogWebhook?.url ?? null },
              { none: "—", remove: t("apiKeys.removeWebhook") },
              removeCatalogWebhookAction,
            ),
          },
        }))}
        total={total}
        paging={paging}
        t={t}
      />
    </>
  );
}
