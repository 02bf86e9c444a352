import { ActionForm } from "@/components/action-form";
import { WholeTable } from "@/components/console-tables";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listFulfillerTokens } from "@/lib/fulfiller/list-fulfiller-tokens";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { createFulfillerAction, revokeFulfillerAction } from "./actions";

export const dynamic = "force-dynamic";

/**
 * Issue 39: the tokens operators' own scripts fulfil manual orders with
 * (docs/fulfiller.md): scope, webhook, live leases, and revoke; the form to
 * make one. Never a token or a secret after its creation.
 */
export default async function FulfillersPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const tokens = await listFulfillerTokens();
  return (
    <>
      <PageHeader title={t("fulfillers.title")} description={t("fulfillers.help")} />
      {tokens.length === 0 ? (
        <p>{t("fulfillers.none")}</p>
      ) : (
        <WholeTable
          testId="fulfillers-table"
          columns={[
            { id: "name", header: t("fulfillers.name") },
            { id: "scope", header: t("fulfillers.scope"), data: true },
            { id: "webhook", header: t("fulfillers.webhookUrl"), wrap: true, data: true },
            { id: "leases", header: t("fulfillers.leases") },
            { id: "state", header: t("fulfillers.state") },
            { id: "created", header: t("common.created") },
            { id: "actions", header: t("common.actions") },
          ]}
          rows={tokens.map((k) => ({
            id: String(k.id),
            cells: {
              name: `#${k.id} ${k.name}`,
              scope: k.productIds.length ? k.productIds.join(", ") : t("fulfillers.allManual"),
              webhook: k.webhookUrl ?? "—",
              leases: String(k.leases),
              state: k.revokedAt ? { text: t("fulfillers.revoked"), badge: "disabled" } : { text: t("fulfillers.active"), badge: "active" },
              created: formatDateTime(k.createdAt),
              actions: k.revokedAt
                ? "—"
                : {
                    node: (
                      <ActionForm
                        action={revokeFulfillerAction}
                        submitLabel={t("fulfillers.revoke")}
                        variant="danger"
                        testId={`revoke-fulfiller-${k.id}`}
                      >
                        <HiddenField name="id" value={String(k.id)} />
                      </ActionForm>
                    ),
                  },
            },
          }))}
          t={t}
        />
      )}
      <Card title={t("fulfillers.create")}>
        <ActionForm
          action={createFulfillerAction}
          submitLabel={t("fulfillers.create")}
          copyLabel={t("common.copy")}
          copiedLabel={t("common.copied")}
          testId="create-fulfiller-form"
        >
          <TextField name="name" label={t("fulfillers.name")} required autoComplete="off" />
          <TextField name="productIds" label={t("fulfillers.productIds")} autoComplete="off" />
          <TextField name="webhookUrl" type="url" label={t("fulfillers.webhookUrl")} placeholder="https://worker.example.com/hook" />
        </ActionForm>
      </Card>
    </>
  );
}
