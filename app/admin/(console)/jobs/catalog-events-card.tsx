import { ActionForm } from "@/components/action-form";
import { WholeTable } from "@/components/console-tables";
import { HiddenField } from "@/components/form-fields";
import { Card } from "@/components/page-header";
import { listCatalogEvents } from "@/lib/catalog-events/list-catalog-events";
import { getI18n } from "@/lib/i18n/server";
import { resendCatalogEventAction } from "./actions";
import { deliveryCells, deliveryColumns } from "./delivery-columns";

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
  return (
    <Card title={t("jobs.catalogEvents")}>
      <WholeTable
        testId="catalog-events-table"
        columns={[
          { id: "key", header: t("jobs.apiKey"), data: true },
          { id: "url", header: "URL", wrap: true },
          { id: "products", header: t("jobs.products") },
          ...deliveryColumns(t),
        ]}
        rows={events.map((e) => ({
          id: String(e.id),
          cells: {
            key: e.apiKey,
            url: e.url,
            products: String(e.products),
            status: { text: t(`jobs.delivery.${e.status}`), badge: BADGE[e.status] },
            ...deliveryCells(e),
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
        t={t}
      />
    </Card>
  );
}
