import { ActionForm } from "@/components/action-form";
import { HiddenField } from "@/components/form-fields";
import { OrderActions, orderActionsLabels } from "@/components/order-actions";
import { OrderQueueHeader, QueuedOrderFacts } from "@/components/order-queue";
import { PurchaseHops, purchaseHopsLabels } from "@/components/purchase-hops";
import { Card } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listReviewQueue } from "@/lib/admin-views/list-review-queue";
import { purchaseHops } from "@/lib/admin-views/purchase-hops";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";
import { deliverOrderAction, failOrderAction } from "../orders/actions";
import { recheckUpstreamAction } from "./actions";

export const dynamic = "force-dynamic";

/** Orders in unknown_review with their upstream purchase; resolve by re-check, delivery or failure. */
export default async function ReviewQueuePage() {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const queue = await listReviewQueue();
  const hopsLabels = purchaseHopsLabels(t);
  return (
    <>
      <OrderQueueHeader title={t("review.title")} intro={t("review.intro")} empty={t("review.empty")} isEmpty={queue.length === 0} />
      {queue.map((o) => {
        const p = o.upstreamPurchase;
        return (
          <Card key={o.id} title={o.orderNo}>
            <QueuedOrderFacts order={o} testId={`review-${o.orderNo}`} t={t} locale={locale} />
            <h3>{t("review.purchase")}</h3>
            {p ? (
              <dl className="kv" data-testid={`purchase-${o.orderNo}`}>
                <dt>{t("review.connection")}</dt>
                <dd>
                  {p.connection.name} ({p.connection.baseUrl})
                </dd>
                <dt>{t("common.status")}</dt>
                <dd>{hopsLabels.states[p.status]}</dd>
                <dt>{t("review.upstreamOrderId")}</dt>
                <dd>{p.upstreamOrderId ?? "—"}</dd>
                <dt>{t("review.upstreamSku")}</dt>
                <dd>{p.upstreamSkuId}</dd>
                <dt>{t("review.runs")}</dt>
                <dd>{p.attemptCount}</dd>
                <dt>{t("review.lastError")}</dt>
                <dd className="wrap">{p.lastError ?? "—"}</dd>
                <dt>{t("review.deadline")}</dt>
                <dd>{formatDateTime(p.deadlineAt)}</dd>
                <dt>{t("review.cost")}</dt>
                <dd>{p.costCents === null ? "—" : formatAmount(p.costCents)}</dd>
              </dl>
            ) : (
              <p>{t("review.noPurchase")}</p>
            )}
            {p && p.hops.length ? <h3>{t("review.hops")}</h3> : null}
            {p && p.hops.length ? (
              <PurchaseHops {...purchaseHops(p, o.amountCents)} testId={`hops-${o.orderNo}`} labels={hopsLabels} />
            ) : null}
            <div style={{ height: 12 }} />
            {p?.status === "unknown" ? (
              <ActionForm
                action={recheckUpstreamAction}
                submitLabel={t("review.recheck")}
                variant="plain"
                keepValues
                testId={`recheck-${o.orderNo}`}
              >
                <HiddenField name="orderNo" value={o.orderNo} />
              </ActionForm>
            ) : null}
            <div style={{ height: 12 }} />
            <OrderActions orderNo={o.orderNo} deliver={deliverOrderAction} fail={failOrderAction} labels={orderActionsLabels(t)} />
          </Card>
        );
      })}
    </>
  );
}
