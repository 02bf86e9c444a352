import { Card, PageHeader } from "@/components/page-header";
import { PortalForm } from "@/components/portal-form";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { getBuyerOrder } from "@/lib/portal/buyer-orders";
import { orNotFound, requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";
import { formLabels, Table } from "../../ui";

export const dynamic = "force-dynamic";

/** One order of the signed-in buyer; another buyer's order is a 404 like a missing one. Card keys only through "reveal". */
export default async function PortalOrderPage({ params }: { params: Promise<{ orderNo: string }> }) {
  const buyer = await requireBuyer();
  const { orderNo } = await params;
  const { t, locale } = await getI18n();
  const order = orNotFound(await getBuyerOrder({ userId: buyer.userId, orderNo: decodeURIComponent(orderNo) }));
  return (
    <>
      <PageHeader title={t("portal.order.title", { orderNo: order.orderNo })}>
        <a href="/portal/orders">{t("portal.common.back")}</a>
      </PageHeader>
      <Card>
        <dl className="kv">
          <dt>{t("portal.orders.orderId")}</dt>
          <dd>
            <code data-testid="portal-order-id">{order.id}</code>
          </dd>
          <dt>{t("portal.orders.downstream")}</dt>
          <dd>{order.downstreamOrderNo}</dd>
          <dt>{t("portal.orders.status")}</dt>
          <dd>
            <span className={`badge badge-${order.status}`} data-testid="portal-order-status">
              {t(`portal.status.${order.status}`)}
            </span>
          </dd>
          <dt>{t("portal.orders.amount")}</dt>
          <dd>{formatAmount(order.amountCents)}</dd>
          <dt>{t("portal.orders.key")}</dt>
          <dd>
            <code translate="no">{order.credential.apiKey}</code>
          </dd>
          <dt>{t("portal.orders.created")}</dt>
          <dd>{formatDateTime(order.createdAt)}</dd>
          {order.errorMessage ? (
            <>
              <dt>{t("portal.order.error")}</dt>
              <dd>{order.errorMessage}</dd>
            </>
          ) : null}
        </dl>
      </Card>
      <div style={{ height: 16 }} />
      <Table
        label={t("portal.orders.items")}
        none={t("portal.common.none")}
        head={[
          t("portal.prices.product"),
          t("portal.prices.sku"),
          t("portal.order.quantity"),
          t("portal.order.unitPrice"),
          t("portal.orders.amount"),
        ]}
      >
        {order.items.map((i, n) => (
          <tr key={n}>
            <td>{pickText(i.title, locale)}</td>
            <td>
              <code translate="no">{i.sku.skuCode}</code>
            </td>
            <td>{i.quantity}</td>
            <td>{formatAmount(i.unitPriceCents)}</td>
            <td>{formatAmount(i.totalPriceCents)}</td>
          </tr>
        ))}
      </Table>
      <div style={{ height: 16 }} />
      <Card title={t("portal.order.history")}>
        <ul>
          {order.history.map((h, n) => (
            <li key={n}>
              {formatDateTime(h.at)} · {t(`portal.status.${h.status}`)}
            </li>
          ))}
        </ul>
      </Card>
      {order.status === "delivered" && order.fulfillment ? (
        <Card title={t("portal.order.delivery")}>
          <p>{t("portal.order.revealHelp")}</p>
          <PortalForm
            action={`/portal/api/orders/${encodeURIComponent(order.orderNo)}/reveal`}
            submitLabel={t("portal.order.reveal")}
            variant="plain"
            labels={formLabels(t)}
            okMessage={t("portal.order.revealed", { format: t(`catalog.format.${order.fulfillment.deliveryFormat}`) })}
            revealLabel="#"
            testId="portal-reveal-form"
          />
        </Card>
      ) : null}
      <Card title={t("portal.order.callbacks")}>
        {order.callbacks.length === 0 ? (
          <p>{t("portal.order.noCallbacks")}</p>
        ) : (
          order.callbacks.map((c) => (
            <div key={c.id}>
              <p>
                <code translate="no">{c.url}</code> · {c.status}
              </p>
              <ul>
                {c.attempts.map((a) => (
                  <li key={a.id}>
                    {formatDateTime(a.createdAt)} · {a.httpStatus ?? a.error ?? "—"} · {a.durationMs} ms
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
      </Card>
    </>
  );
}
