import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField } from "@/components/form-fields";
import { Card } from "@/components/page-header";
import { listCatalogEvents } from "@/lib/catalog-events/list-catalog-events";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { resendCatalogEventAction } from "./actions";

const when = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : "—");

const BADGE = { failed: "failed", cancelled: "disabled", pending: "processing", delivered: "delivered" } as const;

/**
 * Issue 12.2: failed and pending catalogue events beside the order callbacks,
 * a failed one resendable (same body); issue 22.9: the latest cancelled ones
 * (their key or buyer was disabled), which are never sent.
 */
export async function CatalogEventsCard() {
  const { t } = await getI18n();
  const events = [
    ...(await listCatalogEvents({ status: "failed" })),
    ...(await listCatalogEvents({ status: "pending" })),
    ...(await listCatalogEvents({ status: "cancelled", limit: 20 })),
  ];
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
  return (
    <Card title={t("jobs.catalogEvents")}>
      <DataTable
        testId="catalog-events-table"
        columns={[
          { id: "key", header: t("jobs.apiKey"), data: true },
          { id: "url", header: "URL", wrap: true },
          { id: "products", header: t("jobs.products") },
          { id: "status", header: t("common.status") },
          { id: "attempts", header: t("jobs.attempts") },
          { id: "lastError", header: t("jobs.lastError"), wrap: true },
          { id: "next", header: t("jobs.next") },
          { id: "created", header: t("common.created") },
          { id: "actions", header: t("common.actions") },
        ]}
        rows={events.map((e) => ({
          id: String(e.id),
          cells: {
            key: e.apiKey,
            url: e.url,
            products: String(e.products),
            status: { text: t(`jobs.delivery.${e.status}`), badge: BADGE[e.status] },
            attempts: String(e.attempts),
            lastError: e.lastError ?? "",
            next: when(e.nextAttemptAt),
            created: when(e.createdAt),
            actions:
              e.status === "failed"
                ? {
                    node: (
                      <ActionForm
                        action={resendCatalogEventAction}
                        submitLabel={t("jobs.resend")}
                        variant="plain"
                        testId={`resend-catalog-event-${e.id}`}
                      >
                        <HiddenField name="eventId" value={String(e.id)} />
                      </ActionForm>
                    ),
                  }
                : "",
          },
        }))}
        total={events.length}
        pager={false}
        page={1}
        pageSize={Math.max(events.length, 1)}
        labels={labels}
      />
    </Card>
  );
}
