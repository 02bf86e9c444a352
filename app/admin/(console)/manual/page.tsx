import { OrderActions, orderActionsLabels } from "@/components/order-actions";
import { OrderQueueHeader, QueuedOrderFacts } from "@/components/order-queue";
import { Card } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listManualQueue } from "@/lib/admin-views/list-manual-queue";
import { getI18n } from "@/lib/i18n/server";
import { deliverOrderAction, failOrderAction } from "../orders/actions";

export const dynamic = "force-dynamic";

export default async function ManualQueuePage() {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const queue = await listManualQueue();
  return (
    <>
      <OrderQueueHeader title={t("manual.title")} intro={t("manual.intro")} empty={t("manual.empty")} isEmpty={queue.length === 0} />
      {queue.map((o) => (
        <Card key={o.id} title={`${o.orderNo}`}>
          <QueuedOrderFacts order={o} testId={`queue-${o.orderNo}`} t={t} locale={locale} />
          <div style={{ height: 12 }} />
          <OrderActions orderNo={o.orderNo} deliver={deliverOrderAction} fail={failOrderAction} labels={orderActionsLabels(t)} />
        </Card>
      ))}
    </>
  );
}
