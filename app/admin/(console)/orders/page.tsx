import { PagedTable } from "@/components/console-tables";
import { PageHeader } from "@/components/page-header";
import { SearchBar } from "@/components/search-bar";
import { openListPage, type ListPageProps } from "@/lib/admin-auth/open-list-page";
import { listOrders, ORDER_SORTS, ORDER_STATUSES } from "@/lib/admin-views/list-orders";
import { filterQuery, parseOrderFilters } from "@/lib/admin-views/order-filters";
import { one } from "@/lib/admin-views/paging";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

export default async function OrdersPage({ searchParams }: ListPageProps) {
  const { t, locale, params, paging } = await openListPage(searchParams, ORDER_SORTS, "createdAt");
  const filters = parseOrderFilters(params);
  const { total, rows } = await listOrders({ paging, ...filters });
  return (
    <>
      <PageHeader title={t("orders.title")}>
        <a className="btn" href={`/admin/orders.csv?${filterQuery(filters)}`} data-testid="orders-csv" download>
          {t("orders.exportCsv")}
        </a>
      </PageHeader>
      <SearchBar
        q={filters.q}
        placeholder={t("orders.searchPlaceholder")}
        submitLabel={t("common.search")}
        keep={{ sort: one(params, "sort"), dir: one(params, "dir") }}
      >
        <select name="status" defaultValue={filters.status ?? ""} aria-label={t("common.status")}>
          <option value="">
            {t("common.status")}: {t("common.all")}
          </option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`orders.status.${s}`)}
            </option>
          ))}
        </select>
        <select name="profile" defaultValue={filters.profile ?? ""} aria-label={t("orders.profile")}>
          <option value="">{t("orders.anyProfile")}</option>
          <option value="U">U</option>
          <option value="P">P</option>
        </select>
        <input
          name="key"
          defaultValue={filters.apiKey}
          placeholder={t("orders.credential")}
          aria-label={t("orders.credential")}
          size={14}
        />
        <input
          name="product"
          defaultValue={filters.productId}
          placeholder={t("orders.productId")}
          aria-label={t("orders.productId")}
          inputMode="numeric"
          size={8}
        />
        <input type="date" name="from" defaultValue={filters.from} aria-label={t("orders.from")} title={t("orders.from")} />
        <input type="date" name="to" defaultValue={filters.to} aria-label={t("orders.to")} title={t("orders.to")} />
      </SearchBar>
      <PagedTable
        testId="orders-table"
        columns={[
          { id: "orderNo", header: t("orders.orderNo"), sortable: true },
          { id: "downstream", header: t("orders.downstreamNo") },
          { id: "status", header: t("common.status"), sortable: true },
          { id: "product", header: t("orders.product"), wrap: true },
          { id: "amountCents", header: t("common.amount"), sortable: true },
          { id: "buyer", header: t("orders.buyer") },
          { id: "profile", header: t("orders.profile") },
          { id: "apiKey", header: t("orders.credential"), data: true },
          { id: "createdAt", header: t("common.created"), sortable: true },
        ]}
        rows={rows.map((o) => ({
          id: String(o.id),
          cells: {
            orderNo: { text: o.orderNo, href: `/admin/orders/${o.orderNo}` },
            downstream: o.downstreamOrderNo,
            status: { text: t(`orders.status.${o.status}`), badge: o.status },
            product: o.items[0] ? `${pickText(o.items[0].title, locale)} × ${o.items[0].quantity}` : "",
            amountCents: formatAmount(o.amountCents),
            buyer: o.user.email,
            profile: o.profile,
            apiKey: o.credential.apiKey,
            createdAt: formatDateTime(o.createdAt),
          },
        }))}
        total={total}
        paging={paging}
        t={t}
      />
    </>
  );
}
