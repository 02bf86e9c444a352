import { PageHeader } from "@/components/page-header";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { BuyerOrderFilterSchema, listBuyerOrders, ORDERS_PAGE_SIZE, PUBLIC_STATUSES } from "@/lib/portal/buyer-orders";
import { formatAmount } from "@/lib/protocol/amount";
import { DateRangeFields, FilterForm, first, openPortalListPage, keptQuery, Pager, Table, type Query } from "../ui";

export const dynamic = "force-dynamic";

export default async function PortalOrdersPage({ searchParams }: { searchParams: Query }) {
  const { buyer, t, locale, params } = await openPortalListPage(searchParams);
  const raw = {
    status: first(params.status) || undefined,
    from: first(params.from) || undefined,
    to: first(params.to) || undefined,
    downstream: first(params.downstream) || undefined,
    page: first(params.page),
  };
  const filter = BuyerOrderFilterSchema.parse(raw);
  const { total, rows } = await listBuyerOrders({ userId: buyer.userId, filter });
  const kept = { status: filter.status, from: raw.from, to: raw.to, downstream: filter.downstream };
  const exportQuery = keptQuery(kept);
  return (
    <>
      <PageHeader title={t("portal.orders.title")}>
        <a className="btn" href={`/portal/orders.csv?${exportQuery}`} download>
          {t("portal.orders.export")}
        </a>{" "}
        {/* Issue 33.5: with card keys it is a POST from this page (a plain form, no script needed), never a link. */}
        <form method="post" action={`/portal/orders.csv${exportQuery ? `?${exportQuery}` : ""}`} style={{ display: "inline" }}>
          <button type="submit" className="btn" title={t("portal.orders.exportKeysHelp")} data-testid="portal-export-keys">
            {t("portal.orders.exportKeys")}
          </button>
        </form>
      </PageHeader>
      <FilterForm t={t}>
        <div className="field">
          <label htmlFor="status">{t("portal.orders.status")}</label>
          <select id="status" name="status" defaultValue={filter.status ?? ""}>
            <option value="">{t("portal.orders.any")}</option>
            {PUBLIC_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`portal.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <DateRangeFields t={t} from={raw.from} to={raw.to} />
        <div className="field">
          <label htmlFor="downstream">{t("portal.orders.downstream")}</label>
          <input id="downstream" name="downstream" defaultValue={filter.downstream ?? ""} />
        </div>
      </FilterForm>
      <Table
        label={t("portal.orders.title")}
        testId="portal-orders"
        none={t("portal.common.none")}
        head={[
          t("portal.orders.orderNo"),
          <>
            {t("portal.orders.orderId")} <code translate="no">order_id</code>
          </>,
          t("portal.orders.downstream"),
          t("portal.orders.status"),
          t("portal.orders.amount"),
          t("portal.orders.items"),
          t("portal.orders.created"),
        ]}
      >
        {rows.map((o) => (
          <tr key={o.id}>
            <td>
              <a href={`/portal/orders/${encodeURIComponent(o.orderNo)}`}>{o.orderNo}</a>
            </td>
            <td>
              <code data-testid="order-id">{o.id}</code>
            </td>
            <td>{o.downstreamOrderNo}</td>
            <td>
              <span className={`badge badge-${o.status}`}>{t(`portal.status.${o.status}`)}</span>
            </td>
            <td>{formatAmount(o.amountCents)}</td>
            <td>{o.items.map((i) => `${pickText(i.title, locale)} × ${i.quantity}`).join(", ")}</td>
            <td>{formatDateTime(o.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={filter.page} pages={Math.ceil(total / ORDERS_PAGE_SIZE)} params={kept} t={t} />
    </>
  );
}
