import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { WholeTable } from "@/components/console-tables";
import { HiddenField } from "@/components/form-fields";
import { LedgerTable } from "@/components/ledger-table";
import { OrderActions, orderActionsLabels } from "@/components/order-actions";
import { PurchaseHops, purchaseHopsLabels } from "@/components/purchase-hops";
import { Card, PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { getOrderDetail } from "@/lib/admin-views/get-order-detail";
import { purchaseHops } from "@/lib/admin-views/purchase-hops";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";
import { deliverOrderAction, failOrderAction, revealFormFieldAction } from "../actions";

export const dynamic = "force-dynamic";

export default async function OrderPage({ params }: { params: Promise<{ orderNo: string }> }) {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const order = await getOrderDetail(decodeURIComponent((await params).orderNo));
  if (!order) notFound();
  const open = order.status === "processing" || order.status === "unknown_review";
  const replacements = order.claims.flatMap((c) => (c.replacementPurchase ? [c.replacementPurchase] : []));
  return (
    <>
      <PageHeader title={`${t("orders.orderNo")} ${order.orderNo}`}>
        <Link href="/admin/orders">{t("common.back")}</Link>
      </PageHeader>
      <Card>
        <dl className="kv">
          <dt>{t("common.status")}</dt>
          <dd>
            <StatusBadge status={order.status} label={t(`orders.status.${order.status}`)} />
          </dd>
          <dt>{t("orders.downstreamNo")}</dt>
          <dd>{order.downstreamOrderNo}</dd>
          <dt>{t("orders.buyer")}</dt>
          <dd>
            <Link href={`/admin/buyers/${order.user.id}`}>{order.user.email}</Link>
          </dd>
          <dt>{t("apiKeys.key")}</dt>
          <dd translate="no">{order.credential.apiKey}</dd>
          <dt>{t("orders.profile")}</dt>
          <dd>{order.profile}</dd>
          <dt>{t("common.amount")}</dt>
          <dd>{formatAmount(order.amountCents)}</dd>
          {order.refundedCents > 0n ? (
            <>
              <dt>{t("claims.refundedTotal")}</dt>
              <dd data-testid="refunded-total">
                {formatAmount(order.refundedCents)} · <Link href="/admin/claims">{t("claims.nav")}</Link>
              </dd>
            </>
          ) : null}
          <dt>{t("common.created")}</dt>
          <dd>{formatDateTime(order.createdAt)}</dd>
          <dt>{t("orders.completed")}</dt>
          <dd>{formatDateTime(order.completedAt)}</dd>
          {order.errorMessage ? (
            <>
              <dt>{t("orders.error")}</dt>
              <dd>{order.errorMessage}</dd>
            </>
          ) : null}
        </dl>
      </Card>
      <Card title={t("orders.items")}>
        <WholeTable
          columns={[
            { id: "title", header: t("orders.product"), wrap: true },
            { id: "sku", header: "SKU" },
            { id: "qty", header: t("orders.quantity") },
            { id: "unit", header: t("orders.unitPrice") },
            { id: "total", header: t("common.amount") },
          ]}
          rows={order.items.map((i) => ({
            id: String(i.id),
            cells: {
              title: pickText(i.title, locale),
              sku: i.sku.skuCode,
              qty: String(i.quantity),
              unit: formatAmount(i.unitPriceCents),
              total: formatAmount(i.totalPriceCents),
            },
          }))}
          t={t}
        />
      </Card>
      <Card title={t("orders.formData")}>
        {order.formFields.length === 0 ? (
          <p>{t("orders.noForm")}</p>
        ) : (
          <dl className="kv" data-testid="form-data">
            {order.formFields.map((f) => (
              <div key={f} style={{ display: "contents" }}>
                <dt>{f}</dt>
                <dd>
                  <span aria-label={t("orders.masked")}>••••••</span>
                  <ActionForm
                    action={revealFormFieldAction}
                    submitLabel={t("orders.reveal")}
                    variant="plain"
                    testId={`reveal-${f}`}
                    keepValues
                    copyLabel={t("common.copy")}
                    copiedLabel={t("common.copied")}
                  >
                    <HiddenField name="orderNo" value={order.orderNo} />
                    <HiddenField name="field" value={f} />
                  </ActionForm>
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Card>
      <Card title={t("orders.fulfillment")}>
        {order.fulfillment ? (
          <p>
            {t(`catalog.fulfillment.${order.fulfillment.source}`)} · {t(`catalog.format.${order.fulfillment.deliveryFormat}`)} ·{" "}
            {formatDateTime(order.fulfillment.createdAt)} · {t("orders.payloadHidden", { lines: order.fulfillment.deliveredLines })}
          </p>
        ) : (
          <p>{t("orders.notFulfilled")}</p>
        )}
        {open ? (
          <OrderActions orderNo={order.orderNo} deliver={deliverOrderAction} fail={failOrderAction} labels={orderActionsLabels(t)} />
        ) : null}
      </Card>
      {order.upstreamPurchase || replacements.length ? (
        <Card title={t("review.hops")}>
          <PurchaseHops
            {...purchaseHops(order.upstreamPurchase, order.amountCents, replacements)}
            testId="order-hops"
            labels={purchaseHopsLabels(t)}
          />
        </Card>
      ) : null}
      <Card title={t("orders.callbacks")}>
        <WholeTable
          columns={[
            { id: "url", header: "URL", wrap: true },
            { id: "status", header: t("common.status") },
            { id: "attempts", header: t("orders.attempts") },
            { id: "last", header: t("orders.error"), wrap: true },
            { id: "createdAt", header: t("common.created") },
          ]}
          rows={order.callbacks.map((c) => ({
            id: String(c.id),
            cells: {
              url: c.url,
              status: { text: c.status, badge: c.status === "delivered" ? "delivered" : c.status === "failed" ? "failed" : "processing" },
              attempts:
                c.attempts.map((a) => `${formatDateTime(a.createdAt)} → ${a.httpStatus ?? a.error ?? "?"}`).join("; ") ||
                String(c.attemptCount),
              last: c.lastError ?? "",
              createdAt: formatDateTime(c.createdAt),
            },
          }))}
          t={t}
        />
      </Card>
      <Card title={t("buyers.ledger")}>
        <LedgerTable entries={order.ledger} t={t} />
      </Card>
    </>
  );
}
