import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listCallbacks } from "@/lib/callbacks/list-callbacks";
import { listJobs } from "@/lib/jobs/list-jobs";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { resendCallbackAction, retryJobAction } from "./actions";
import { CatalogEventsCard } from "./catalog-events-card";

export const dynamic = "force-dynamic";

const when = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : "—");

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
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
  return (
    <>
      <PageHeader title={t("jobs.title")} />
      <Card title={t("jobs.callbacks")}>
        <DataTable
          testId="callbacks-table"
          columns={[
            { id: "order", header: t("jobs.order") },
            { id: "url", header: "URL", wrap: true },
            { id: "status", header: t("common.status") },
            { id: "attempts", header: t("jobs.attempts") },
            { id: "lastError", header: t("jobs.lastError"), wrap: true },
            { id: "next", header: t("jobs.next") },
            { id: "created", header: t("common.created") },
            { id: "actions", header: t("common.actions") },
          ]}
          rows={callbacks.map((c) => ({
            id: String(c.id),
            cells: {
              order: { text: c.orderNo, href: `/admin/orders/${c.orderNo}` },
              url: c.url,
              status: { text: t(`jobs.delivery.${c.status}`), badge: c.status === "failed" ? "failed" : "processing" },
              attempts: String(c.attempts),
              lastError: c.lastError ?? "",
              next: when(c.nextAttemptAt),
              created: when(c.createdAt),
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
          total={callbacks.length}
          pager={false}
          page={1}
          pageSize={Math.max(callbacks.length, 1)}
          labels={labels}
        />
      </Card>
      <CatalogEventsCard />
      <Card title={t("jobs.jobs")}>
        <DataTable
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
          total={jobs.length}
          pager={false}
          page={1}
          pageSize={Math.max(jobs.length, 1)}
          labels={labels}
        />
      </Card>
    </>
  );
}
