import Link from "next/link";
import { OrderActions } from "@/components/order-actions";
import { Card, PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listManualQueue } from "@/lib/admin-views/list-manual-queue";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";
import { deliverOrderAction, failOrderAction } from "../orders/actions";

export const dynamic = "force-dynamic";

export default async function ManualQueuePage() {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const queue = await listManualQueue();
  const labels = { payload: t("manual.payload"), deliver: t("manual.deliver"), reason: t("manual.failReason"), fail: t("manual.fail") };
  return (
    <>
      <PageHeader title={t("manual.title")} description={t("manual.intro")} />
      {queue.length === 0 ? (
        <Card>
          <p>{t("manual.empty")}</p>
        </Card>
      ) : null}
      {queue.map((o) => (
        <Card key={o.id} title={`${o.orderNo}`}>
          <dl className="kv" data-testid={`queue-${o.orderNo}`}>
            <dt>{t("common.status")}</dt>
            <dd>
              <StatusBadge status={o.status} label={t(`orders.status.${o.status}`)} />
            </dd>
            <dt>{t("orders.product")}</dt>
            <dd>{o.items.map((i) => `${pickText(i.title, locale)} × ${i.quantity}`).join(", ")}</dd>
            <dt>{t("orders.buyer")}</dt>
            <dd>{o.user.email}</dd>
            <dt>{t("orders.downstreamNo")}</dt>
            <dd>{o.downstreamOrderNo}</dd>
            <dt>{t("common.amount")}</dt>
            <dd>{formatAmount(o.amountCents)}</dd>
            <dt>{t("common.created")}</dt>
            <dd>{formatDateTime(o.createdAt)}</dd>
            <dt>{t("orders.formData")}</dt>
            <dd>
              {o.formFields.length ? `${o.formFields.join(", ")} (${t("orders.masked")})` : t("orders.noForm")} ·{" "}
              <Link href={`/admin/orders/${o.orderNo}`}>{t("common.details")}</Link>
            </dd>
          </dl>
          <div style={{ height: 12 }} />
          <OrderActions orderNo={o.orderNo} deliver={deliverOrderAction} fail={failOrderAction} labels={labels} />
        </Card>
      ))}
    </>
  );
}
