import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { PageHeader } from "@/components/page-header";
import { SearchBar } from "@/components/search-bar";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listProducts, PRODUCT_SORTS } from "@/lib/admin-views/list-products";
import { one, parsePaging, type SearchParams } from "@/lib/admin-views/paging";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

export default async function ProductsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const params = await searchParams;
  const paging = parsePaging(params, PRODUCT_SORTS, "id");
  const q = one(params, "q");
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
      <DataTable
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
        page={paging.page}
        pageSize={paging.pageSize}
        sort={paging.sort}
        dir={paging.dir}
        labels={{ previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") }}
      />
    </>
  );
}
