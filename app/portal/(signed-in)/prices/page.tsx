import { PageHeader } from "@/components/page-header";
import { pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { getPriceList, stockBand } from "@/lib/portal/price-list";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";
import { first, Table, type Query } from "../ui";

export const dynamic = "force-dynamic";

export default async function PortalPricesPage({ searchParams }: { searchParams: Query }) {
  const buyer = await requireBuyer();
  const { t, locale } = await getI18n();
  const params = await searchParams;
  const q = first(params.q)?.slice(0, 100) ?? "";
  const category = Number(first(params.category));
  const categoryId = Number.isSafeInteger(category) && category > 0 ? category : undefined;
  const { rows, categories } = await getPriceList({ userId: buyer.userId, q, categoryId });
  const exportQuery = new URLSearchParams({ ...(q ? { q } : {}), ...(categoryId ? { category: String(categoryId) } : {}) }).toString();
  return (
    <>
      <PageHeader title={t("portal.prices.title")} description={t("portal.prices.help")}>
        <a className="btn" href={`/portal/prices.csv${exportQuery ? `?${exportQuery}` : ""}`} download>
          {t("portal.prices.export")}
        </a>
      </PageHeader>
      <form className="table-tools" method="get" role="search">
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
        <div>
          <button type="submit" className="btn">
            {t("portal.prices.filter")}
          </button>
        </div>
      </form>
      <Table
        label={t("portal.prices.title")}
        testId="portal-prices"
        head={[
          t("portal.prices.product"),
          t("portal.prices.sku"),
          t("portal.prices.price"),
          t("portal.prices.stock"),
          t("portal.prices.format"),
          t("portal.prices.category"),
        ]}
      >
        {rows.length === 0 ? (
          <tr>
            <td colSpan={6}>{t("portal.common.none")}</td>
          </tr>
        ) : (
          rows.map((r) => {
            const band = stockBand(r.stock);
            return (
              <tr key={r.skuId}>
                <td>{pickText(r.productTitle, locale)}</td>
                <td>
                  <code>{r.skuCode}</code>
                </td>
                <td>{formatAmount(r.priceCents)}</td>
                <td>{band === "available" ? t("portal.stock.available", { count: r.stock ?? 0 }) : t(`portal.stock.${band}`)}</td>
                <td>{r.deliveryFormat}</td>
                <td>{r.categoryName ? pickText(r.categoryName, locale) : ""}</td>
              </tr>
            );
          })
        )}
      </Table>
    </>
  );
}
