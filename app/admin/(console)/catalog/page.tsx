import Link from "next/link";
import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listCategoryTree } from "@/lib/admin-views/list-categories";
import { one, type SearchParams } from "@/lib/admin-views/paging";
import { pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { saveCategoryAction } from "./actions";

export const dynamic = "force-dynamic";

/** Categories as a tree (indented by depth) with a create form, or an edit form for ?edit=<id>. */
export default async function CatalogPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const tree = await listCategoryTree();
  const editId = Number(one(await searchParams, "edit") ?? 0);
  const editing = tree.find((c) => c.id === editId);
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
  return (
    <>
      <PageHeader title={t("catalog.title")}>
        <div className="btn-row">
          <Link className="btn" href="/admin/catalog/products">
            {t("catalog.products")}
          </Link>
          <Link className="btn btn-primary" href="/admin/catalog/products/new">
            {t("catalog.newProduct")}
          </Link>
        </div>
      </PageHeader>
      <Card title={t("catalog.categories")}>
        <DataTable
          testId="category-tree"
          columns={[
            { id: "name", header: t("catalog.name"), wrap: true },
            { id: "slug", header: t("catalog.slug"), data: true },
            { id: "sort", header: t("catalog.sortOrder") },
            { id: "products", header: t("catalog.productCount") },
            { id: "actions", header: t("common.actions") },
          ]}
          rows={tree.map((c) => ({
            id: String(c.id),
            cells: {
              name: {
                node: (
                  <span className="tree-name" style={{ paddingLeft: `${c.depth * 18}px` }}>
                    {c.depth ? "└ " : ""}
                    {pickText(c.name, locale) || c.slug}
                  </span>
                ),
              },
              slug: c.slug,
              sort: String(c.sortOrder),
              products: { text: String(c.products), href: `/admin/catalog/products?category=${c.id}` },
              actions: { text: t("catalog.edit"), href: `/admin/catalog?edit=${c.id}` },
            },
          }))}
          total={tree.length}
          pager={false}
          page={1}
          pageSize={Math.max(tree.length, 1)}
          labels={labels}
        />
      </Card>
      <Card title={editing ? t("catalog.editCategory") : t("catalog.newCategory")}>
        <ActionForm
          key={editing?.id ?? "new"}
          action={saveCategoryAction}
          submitLabel={t("common.save")}
          keepValues={!!editing}
          testId="category-form"
        >
          {editing ? <HiddenField name="id" value={String(editing.id)} /> : null}
          <TextField name="slug" label={t("catalog.slug")} help={t("catalog.slugHelp")} defaultValue={editing?.slug} required />
          <TextField name="name_zh" label={t("catalog.nameZh")} defaultValue={editing?.name["zh-CN"]} />
          <TextField name="name_en" label={t("catalog.nameEn")} defaultValue={editing?.name.en} />
          <TextField
            name="sort_order"
            type="number"
            inputMode="numeric"
            label={t("catalog.sortOrder")}
            defaultValue={editing?.sortOrder ?? 0}
          />
          <div className="field">
            <label htmlFor="f-parent_id">{t("catalog.parent")}</label>
            <select id="f-parent_id" name="parent_id" defaultValue={editing?.parentId ? String(editing.parentId) : ""}>
              <option value="">{t("catalog.noParent")}</option>
              {tree
                .filter((c) => c.id !== editing?.id)
                .map((c) => (
                  <option key={c.id} value={c.id}>
                    {"— ".repeat(c.depth)}
                    {pickText(c.name, locale) || c.slug}
                  </option>
                ))}
            </select>
          </div>
        </ActionForm>
        {editing ? (
          <p>
            <Link href="/admin/catalog">{t("catalog.newCategory")}</Link>
          </p>
        ) : null}
      </Card>
    </>
  );
}
