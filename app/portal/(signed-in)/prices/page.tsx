import { CopyButton } from "@/components/copy-button";
import { PageHeader } from "@/components/page-header";
import { pickText } from "@/lib/i18n/format";
import { getPriceList, stockBand } from "@/lib/portal/price-list";
import { formatAmount } from "@/lib/protocol/amount";
import { FilterForm, first, openPortalListPage, keptQuery, Table, type Query } from "../ui";

export const dynamic = "force-dynamic";

export default async function PortalPricesPage({ searchParams }: { searchParams: Query }) {
  const { buyer, t, locale, params } = await openPortalListPage(searchParams);
  const q = first(params.q)?.slice(0, 100) ?? "";
  const category = Number(first(params.category));
  const categoryId = Number.isSafeInteger(category) && category > 0 ? category : undefined;
  const { rows, categories } = await getPriceList({ userId: buyer.userId, q, categoryId });
  const exportQuery = keptQuery({ q, category: categoryId ? String(categoryId) : undefined });
  return (
    <>
      <PageHeader title={t("portal.prices.title")} description={t("portal.prices.help")}>
        <a className="btn" href={`/portal/prices.csv${exportQuery ? `?${exportQuery}` : ""}`} download>
          {t("portal.prices.export")}
        </a>
      </PageHeader>
      <FilterForm t={t}>
        <div className="field">
          <label htmlFor="q">{t("portal.prices.search")}</label>
          <input id="q" name="q" type="search" defaultValue={q} />
        </div>
        <div className="field">
          <label htmlFor="category">{t("portal.prices.category")}</label>
          <select id="category" name="category" defaultValue={categoryId ? String(categoryId) : ""}>
            <option value="">{t("portal.prices.allCategories")}</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {pickText(c.name, locale) || c.slug}
              </option>
            ))}
          </select>
        </div>
      </FilterForm>
      <Table
        label={t("portal.prices.title")}
        testId="portal-prices"
        none={t("portal.common.none")}
        head={[
          t("portal.prices.product"),
          t("portal.prices.price"),
          t("portal.prices.stock"),
          <>
            {t("portal.prices.skuId")} <code translate="no">sku_id</code>
          </>,
          t("portal.prices.sku"),
          t("portal.prices.format"),
          t("portal.prices.category"),
        ]}
      >
        {rows.map((r) => {
          const band = stockBand(r.stock);
          return (
            <tr key={r.skuId}>
              {/* Price and stock next to the product: on a phone they show without scrolling (issue 35.3). */}
              <td className="wrap-narrow" translate="no">
                {pickText(r.productTitle, locale)}
              </td>
              <td>{formatAmount(r.priceCents)}</td>
              <td>{band === "available" ? t("portal.stock.available", { count: r.stock ?? 0 }) : t(`portal.stock.${band}`)}</td>
              <td>
                <code data-testid="sku-id">{r.skuId}</code>{" "}
                <CopyButton
                  value={String(r.skuId)}
                  label={t("portal.common.copy")}
                  copiedLabel={t("portal.common.copied")}
                  name={t("portal.prices.copySkuId", { id: r.skuId })}
                  small
                />
              </td>
              <td translate="no">
                <code translate="no">{r.skuCode}</code>
              </td>
              <td>{t(`catalog.format.${r.deliveryFormat}`)}</td>
              <td translate="no">{r.categoryName ? pickText(r.categoryName, locale) : ""}</td>
            </tr>
          );
        })}
      </Table>
    </>
  );
}
