import { ActionForm } from "@/components/action-form";
import { WholeTable } from "@/components/console-tables";
import { HiddenField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listCallbacks } from "@/lib/callbacks/list-callbacks";
import { listJobs } from "@/lib/jobs/list-jobs";
import { getI18n } from "@/lib/i18n/server";
import { resendCallbackAction, retryJobAction } from "./actions";
import { CatalogEventsCard } from "./catalog-events-card";
import { deliveryCells, deliveryColumns, when } from "./delivery-columns";

export const dynamic = "force-dynamic";

/** Failed and pending callbacks (resend a failed one, D28) and unfinished jobs (retry a failed one). Never a body or payload secret. */
export default async function JobsPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const [failed, pending, jobs] = await Promise.all([
    listCallbacks({ status: "failed" }),
    listCallbacks({ status: "pending" }),
    listJobs({ limit: 200 }),
  ]);
  const callbacks = [...failed, ...pending];
  return (
    <>
      <PageHeader title={t("jobs.title")} />
      <Card title={t("jobs.callbacks")}>
        <WholeTable
          testId="callbacks-table"
          columns={[{ id: "order", header: t("jobs.order") }, { id: "url", header: "URL", wrap: true }, ...deliveryColumns(t)]}
          rows={callbacks.map((c) => ({
            id: String(c.id),
            cells: {
              order: { text: c.orderNo, href: `/admin/orders/${c.orderNo}` },
              url: c.url,
              status: { text: t(`jobs.delivery.${c.status}`), badge: c.status === "failed" ? "failed" : "processing" },
              ...deliveryCells(c),
              actions:
                c.status === "failed"
                  ? {
                      node: (
                        <ActionForm action={resendCallbackAction} submitLabel={t("jobs.resend")} variant="plain" testId={`resend-${c.id}`}>
                          <HiddenField name="callbackId" value={String(c.id)} />
                        </ActionForm>
                      ),
                    }
                  : "",
            },
          }))}
          t={t}
        />
      </Card>
      <CatalogEventsCard />
      <Card title={t("jobs.jobs")}>
        <WholeTable
          testId="jobs-table"
          columns={[
            { id: "id", header: "ID" },
            { id: "task", header: t("jobs.task") },
            { id: "state", header: t("jobs.state") },
            { id: "attempts", header: t("jobs.attempts") },
            { id: "runAt", header: t("jobs.runAt") },
            { id: "lastError", header: t("jobs.lastError"), wrap: true },
            { id: "actions", header: t("common.actions") },
          ]}
          rows={jobs.map((j) => ({
            id: j.id,
            cells: {
              id: j.id,
              task: j.task,
              state: { text: t(`jobs.state.${j.state}`), badge: j.state === "failed" ? "failed" : "processing" },
              attempts: `${j.attempts} / ${j.maxAttempts}`,
              runAt: when(j.runAt),
              lastError: j.lastError ?? "",
              actions:
                j.state === "failed"
                  ? {
                      node: (
                        <ActionForm action={retryJobAction} submitLabel={t("jobs.retry")} variant="plain" testId={`retry-${j.id}`}>
                          <HiddenField name="jobId" value={j.id} />
                        </ActionForm>
                      ),
                    }
                  : "",
            },
          }))}
          t={t}
        />
      </Card>
    </>
  );
}
