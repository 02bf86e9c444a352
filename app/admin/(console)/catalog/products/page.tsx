import Link from "next/link";
import { PagedTable } from "@/components/console-tables";
import { PageHeader } from "@/components/page-header";
import { SearchBar } from "@/components/search-bar";
import { openListPage, type ListPageProps } from "@/lib/admin-auth/open-list-page";
import { listProducts, PRODUCT_SORTS } from "@/lib/admin-views/list-products";
import { one } from "@/lib/admin-views/paging";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

export default async function ProductsPage({ searchParams }: ListPageProps) {
  const { t, locale, params, paging, q } = await openListPage(searchParams, PRODUCT_SORTS, "id");
  const categoryId = Number(one(params, "category") ?? 0) || undefined;
  const { total, rows } = await listProducts({ paging, q, categoryId });
  return (
    <>
      <PageHeader title={t("catalog.products")}>
        <div className="btn-row">
          <Link className="btn" href="/admin/catalog">
            {t("catalog.categories")}
          </Link>
          <Link className="btn btn-primary" href="/admin/catalog/products/new">
            {t("catalog.newProduct")}
          </Link>
        </div>
      </PageHeader>
      <SearchBar
        q={q}
        placeholder={t("catalog.slug")}
        submitLabel={t("common.search")}
        keep={{ category: categoryId ? String(categoryId) : undefined }}
      />
      <PagedTable
        testId="products-table"
        columns={[
          { id: "id", header: "ID", sortable: true },
          { id: "slug", header: t("catalog.slug"), sortable: true, data: true },
          { id: "title", header: t("catalog.name"), wrap: true },
          { id: "category", header: t("catalog.category"), data: true },
          { id: "type", header: t("catalog.fulfillmentType") },
          { id: "price", header: t("catalog.price") },
          { id: "skus", header: "SKU" },
          { id: "status", header: t("common.status") },
          { id: "createdAt", header: t("common.created"), sortable: true },
        ]}
        rows={rows.map((p) => ({
          id: String(p.id),
          cells: {
            id: String(p.id),
            slug: { text: p.slug, href: `/admin/catalog/products/${p.id}` },
            title: pickText(p.title, locale),
            category: p.category.slug,
            type: t(`catalog.fulfillment.${p.fulfillmentType}`),
            price: formatAmount(p.priceCents),
            skus: String(p._count.skus),
            status: { text: p.isActive ? t("apiKeys.active") : t("apiKeys.disabled"), badge: p.isActive ? "active" : "disabled" },
            createdAt: formatDateTime(p.createdAt),
          },
        }))}
        total={total}
        paging={paging}
        t={t}
      />
    </>
  );
}
