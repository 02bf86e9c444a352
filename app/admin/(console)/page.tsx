import Link from "next/link";
import { PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { dashboardStats } from "@/lib/admin-views/dashboard-stats";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

export default async function DashboardPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const s = await dashboardStats();
  const stats: [string, string, string?][] = [
    [t("dashboard.ordersToday"), String(s.ordersToday), "/admin/orders"],
    [t("dashboard.salesToday"), formatAmount(s.salesTodayCents)],
    [t("dashboard.waitingManual"), String(s.waitingManual), "/admin/manual"],
    [t("dashboard.waitingReview"), String(s.waitingReview), "/admin/orders?status=unknown_review"],
    [t("dashboard.failedCallbacks"), String(s.failedCallbacks)],
    [t("dashboard.buyers"), String(s.buyers), "/admin/buyers"],
  ];
  return (
    <>
      <PageHeader title={t("dashboard.title")} />
      <div className="grid-stats">
        {stats.map(([label, value, href]) => (
          <div className="stat" key={label}>
            <b>{value}</b>
            {href ? <Link href={href}>{label}</Link> : label}
          </div>
        ))}
      </div>
    </>
  );
}
