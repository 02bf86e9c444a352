import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextArea, TextField, Toggle } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { getProduct } from "@/lib/admin-views/get-product";
import { listCategoryTree } from "@/lib/admin-views/list-categories";
import { one } from "@/lib/admin-views/paging";
import { routeId, type IdPageProps } from "@/lib/admin-views/route-id";
import { pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listLevels } from "@/lib/levels/list-levels";
import { formatAmount } from "@/lib/protocol/amount";
import { saveSkuAction } from "../../actions";
import { ProductEditor } from "../../product-editor";

export const dynamic = "force-dynamic";

/** A product: its form, its SKUs (stock or card-key counts) and a SKU form (new, or ?sku=<id> to edit). */
export default async function ProductPage({ params, searchParams }: IdPageProps) {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const id = await routeId(params);
  const product = id ? await getProduct(id) : null;
  if (!product) notFound();
  const skuParam = Number(one(await searchParams, "sku") ?? 0);
  const editSku = product.skus.find((s) => s.id === skuParam);
  const auto = product.fulfillmentType === "auto";
  const levels = await listLevels();
  const spec = (v: unknown) =>
    Object.entries((v ?? {}) as Record<string, string>)
      .map(([k, x]) => `${k}=${x}`)
      .join("\n");
  return (
    <>
      <PageHeader title={`${t("catalog.editProduct")}: ${pickText(product.title, locale) || product.slug}`}>
        <Link href="/admin/catalog/products">{t("common.back")}</Link>
      </PageHeader>
      <Card title={t("catalog.skus")}>
        <DataTable
          testId="skus-table"
          columns={[
            { id: "code", header: t("catalog.skuCode") },
            { id: "price", header: t("catalog.price") },
            { id: "status", header: t("common.status") },
            { id: "stock", header: t("catalog.stock") },
            { id: "delivered", header: t("catalog.delivered") },
            { id: "actions", header: t("common.actions") },
          ]}
          rows={product.skus.map((s) => ({
            id: String(s.id),
            cells: {
              code: s.skuCode,
              price: formatAmount(s.priceCents),
              status: { text: s.isActive ? t("apiKeys.active") : t("apiKeys.disabled"), badge: s.isActive ? "active" : "disabled" },
              stock: auto
                ? `${s.available} (${t("catalog.available")})`
                : s.stockQuantity === null
                  ? t("catalog.unlimited")
                  : String(s.stockQuantity),
              delivered: auto ? String(s.delivered) : "",
              actions: {
                node: (
                  <span className="btn-row">
                    <a href={`/admin/catalog/products/${product.id}?sku=${s.id}`}>{t("catalog.edit")}</a>
                    {auto ? <a href={`/admin/catalog/skus/${s.id}`}>{t("catalog.manageKeys")}</a> : null}
                    {/* Issue 26.1: every SKU has a sources panel, also a manual or upstream product's (it has no keys page). */}
                    <a href={`/admin/catalog/skus/${s.id}/sources`}>{t("sources.link")}</a>
                  </span>
                ),
              },
            },
          }))}
          total={product.skus.length}
          pager={false}
          page={1}
          pageSize={Math.max(product.skus.length, 1)}
          labels={{ previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") }}
        />
      </Card>
      <Card title={editSku ? `${t("catalog.edit")} ${editSku.skuCode}` : t("catalog.newSku")}>
        <ActionForm
          key={editSku?.id ?? "new"}
          action={saveSkuAction}
          submitLabel={t("common.save")}
          keepValues={!!editSku}
          testId="sku-form"
        >
          <HiddenField name="product_id" value={String(product.id)} />
          {editSku ? <HiddenField name="id" value={String(editSku.id)} /> : null}
          <TextField name="sku_code" id="f-sku_code" label={t("catalog.skuCode")} defaultValue={editSku?.skuCode} required />
          <TextField
            name="price"
            id="f-sku_price"
            inputMode="decimal"
            label={t("catalog.price")}
            defaultValue={editSku ? formatAmount(editSku.priceCents) : formatAmount(product.priceCents)}
            required
          />
          <TextArea name="spec_values" label={t("catalog.specValues")} defaultValue={spec(editSku?.specValues)} rows={2} />
          <Toggle name="sku_active" label={t("catalog.active")} defaultChecked={editSku?.isActive ?? true} />
          {auto ? null : (
            <TextField
              name="stock"
              type="number"
              inputMode="numeric"
              label={t("catalog.stock")}
              help={t("catalog.stockHelp")}
              defaultValue={editSku?.stockQuantity ?? ""}
            />
          )}
          <fieldset className="level-prices" data-testid="level-prices">
            <legend>{t("levels.priceTitle")}</legend>
            <p className="help">{t("levels.priceHelp")}</p>
            {levels.map((l) => {
              const price = editSku?.levelPrices[l.slug];
              return (
                <TextField
                  key={l.slug}
                  name={`level_price.${l.slug}`}
                  id={`f-level-price-${l.slug}`}
                  inputMode="decimal"
                  label={`${pickText(l.name, locale) || l.slug} (${l.slug})`}
                  defaultValue={price === undefined ? "" : formatAmount(price)}
                />
              );
            })}
          </fieldset>
        </ActionForm>
      </Card>
      <Card title={t("catalog.editProduct")}>
        <ProductEditor product={product} categories={await listCategoryTree()} t={t} locale={locale} />
      </Card>
    </>
  );
}
