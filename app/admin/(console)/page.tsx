import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { DayChart } from "@/components/day-chart";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { dashboardStats, lowStockSkus, ordersPerDay } from "@/lib/admin-views/dashboard-stats";
import { listAlertChannels } from "@/lib/alerts/list-channels";
import { pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

export default async function DashboardPage() {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const [s, days, low, channels] = await Promise.all([dashboardStats(), ordersPerDay(14), lowStockSkus(), listAlertChannels()]);
  const failing = channels.filter((c) => c.failing); // issue 25: a channel whose last send failed
  const stats: [string, string, string?][] = [
    [t("dashboard.ordersToday"), String(s.ordersToday), "/admin/orders"],
    [t("dashboard.salesToday"), formatAmount(s.salesTodayCents)],
    [t("dashboard.waitingManual"), String(s.waitingManual), "/admin/manual"],
    [t("dashboard.waitingReview"), String(s.waitingReview), "/admin/review"],
    [t("dashboard.failedCallbacks"), String(s.failedCallbacks), "/admin/jobs"],
    [t("dashboard.failedJobs"), String(s.failedJobs), "/admin/jobs"],
    [t("dashboard.buyers"), String(s.buyers), "/admin/buyers"],
  ];
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("dashboard.noLowStock") };
  return (
    <>
      <PageHeader title={t("dashboard.title")} />
      {failing.length ? (
        <div className="msg msg-error" role="alert" data-testid="failing-channels">
          <Link href="/admin/alerts">{t("alerts.failingBanner", { names: failing.map((c) => c.name).join(", ") })}</Link>
        </div>
      ) : null}
      <div className="grid-stats">
        {stats.map(([label, value, href]) => (
          <div className="stat" key={label}>
            <b>{value}</b>
            {href ? <Link href={href}>{label}</Link> : label}
          </div>
        ))}
      </div>
      <div style={{ height: 16 }} />
      <Card title={t("dashboard.perDay")}>
        <DayChart
          data={days.map((d) => ({ day: d.day, orders: d.orders, sales: formatAmount(d.salesCents), salesValue: Number(d.salesCents) }))}
          labels={{
            title: t("dashboard.perDay"),
            orders: t("dashboard.orders"),
            sales: t("dashboard.sales"),
            ordersLegend: (max) => t("dashboard.ordersLegend", { max }),
          }}
        />
      </Card>
      <Card title={t("dashboard.lowStock")}>
        <DataTable
          testId="low-stock-table"
          columns={[
            { id: "sku", header: "SKU" },
            { id: "product", header: t("orders.product"), wrap: true },
            { id: "stock", header: t("dashboard.stock") },
          ]}
          rows={low.map((r) => ({
            id: String(r.skuId),
            cells: { sku: r.skuCode, product: pickText(r.title, locale), stock: String(r.stock) },
          }))}
          total={low.length}
          pager={false}
          page={1}
          pageSize={Math.max(low.length, 1)}
          labels={labels}
        />
      </Card>
    </>
  );
}
