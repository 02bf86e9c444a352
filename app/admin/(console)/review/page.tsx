import Link from "next/link";
import { ActionForm } from "@/components/action-form";
import { HiddenField } from "@/components/form-fields";
import { OrderActions } from "@/components/order-actions";
import { PurchaseHops } from "@/components/purchase-hops";
import { Card, PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listReviewQueue } from "@/lib/admin-views/list-review-queue";
import { purchaseHops } from "@/lib/admin-views/purchase-hops";
import { formatDateTime, pickText } from "@/lib/i18n/format";
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
  const HOPS_LABELS = {
    hop: t("review.hop"),
    connection: t("review.connection"),
    upstreamSku: t("review.upstreamSku"),
    number: t("review.number"),
    status: t("common.status"),
    outcome: t("review.outcome"),
    cost: t("review.cost"),
    margin: t("review.margin"),
    states: {
      pending: t("review.state.pending"),
      placed: t("review.state.placed"),
      delivered: t("review.state.delivered"),
      failed: t("review.state.failed"),
      unknown: t("review.state.unknown"),
    },
  };
  const labels = { payload: t("manual.payload"), deliver: t("manual.deliver"), reason: t("manual.failReason"), fail: t("manual.fail") };
  return (
    <>
      <PageHeader title={t("review.title")} description={t("review.intro")} />
      {queue.length === 0 ? (
        <Card>
          <p>{t("review.empty")}</p>
        </Card>
      ) : null}
      {queue.map((o) => {
        const p = o.upstreamPurchase;
        return (
          <Card key={o.id} title={o.orderNo}>
            <dl className="kv" data-testid={`review-${o.orderNo}`}>
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
            <h3>{t("review.purchase")}</h3>
            {p ? (
              <dl className="kv" data-testid={`purchase-${o.orderNo}`}>
                <dt>{t("review.connection")}</dt>
                <dd>
                  {p.connection.name} ({p.connection.baseUrl})
                </dd>
                <dt>{t("common.status")}</dt>
                <dd>{HOPS_LABELS.states[p.status]}</dd>
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
              <PurchaseHops {...purchaseHops(p, o.amountCents)} testId={`hops-${o.orderNo}`} labels={HOPS_LABELS} />
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
            <OrderActions orderNo={o.orderNo} deliver={deliverOrderAction} fail={failOrderAction} labels={labels} />
          </Card>
        );
      })}
    </>
  );
}
