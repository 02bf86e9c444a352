import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { CardKeyImport } from "@/components/card-key-import";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { getSkuStock } from "@/lib/admin-views/get-sku-stock";
import { one } from "@/lib/admin-views/paging";
import { routeId, type IdPageProps } from "@/lib/admin-views/route-id";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { cardKeyImportAction, revealCardKeyAction, undoBatchAction } from "../../card-key-actions";
import { setPriceTiersAction } from "../../../buyers/price-actions";
import { getSkuTiers } from "@/lib/prices/get-sku-tiers";
import { tiersText } from "@/lib/prices/price-input";

export const dynamic = "force-dynamic";
const PAGE_SIZE = 50;

/** A SKU's card keys: counts, import with preview, batches (undo) and the keys masked (audited reveal, one at a time). */
export default async function SkuKeysPage({ params, searchParams }: IdPageProps) {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const id = await routeId(params);
  const page = Math.max(1, Math.min(100_000, Number(one(await searchParams, "page") ?? 1) || 1));
  const stock = id ? await getSkuStock(id, page, PAGE_SIZE) : null;
  if (!stock) notFound();
  const { sku } = stock;
  const tiers = (await getSkuTiers(sku.id))?.tiers ?? [];
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
  const status = (s: "available" | "delivered") => ({ text: t(`catalog.${s}`), badge: s === "available" ? "active" : "delivered" });
  return (
    <>
      <PageHeader title={t("cardKeys.title", { sku: sku.skuCode })} description={pickText(sku.product.title, locale)}>
        <Link href={`/admin/catalog/products/${sku.product.id}`}>{t("common.back")}</Link>
        {" · "}
        <Link href={`/admin/catalog/skus/${sku.id}/sources`}>{t("sources.link")}</Link>
      </PageHeader>
      {sku.product.fulfillmentType !== "auto" ? <div className="msg msg-warn">{t("cardKeys.notAuto")}</div> : null}
      <div className="grid-stats stats-gap" data-testid="key-counts">
        <div className="stat">
          <span>{t("catalog.available")}</span>
          <b data-count="available">{stock.available}</b>
        </div>
        <div className="stat">
          <span>{t("catalog.delivered")}</span>
          <b data-count="delivered">{stock.delivered}</b>
        </div>
      </div>
      <Card title={t("cardKeys.tiers")}>
        <p className="help" data-testid="sku-tiers">
          {tiers.length ? tiersText(tiers) : t("cardKeys.noTiers")}
        </p>
        <ActionForm action={setPriceTiersAction} submitLabel={t("common.save")} keepValues testId="price-tiers-form">
          <HiddenField name="skuId" value={String(sku.id)} />
          <HiddenField name="sku_code" value={sku.skuCode} />
          <TextField name="tiers" label={t("cardKeys.tiersField")} help={t("cardKeys.tiersHelp")} defaultValue={tiersText(tiers)} />
        </ActionForm>
      </Card>
      <Card title={t("cardKeys.import")}>
        <p className="help">
          {t("cardKeys.formatHelp", {
            format: t(`catalog.format.${sku.product.deliveryFormat}`),
            delimiter: sku.product.deliveryDelimiter,
          })}
        </p>
        <CardKeyImport
          skuId={sku.id}
          action={cardKeyImportAction}
          labels={{
            paste: t("cardKeys.paste"),
            file: t("cardKeys.file"),
            previewButton: t("cardKeys.previewButton"),
            confirm: t("cardKeys.confirm"),
            previewTitle: t("cardKeys.previewTitle"),
            lines: t("cardKeys.lines"),
            new: t("cardKeys.new"),
            duplicateExisting: t("cardKeys.duplicateExisting"),
            duplicateInUpload: t("cardKeys.duplicateInUpload"),
            malformed: t("cardKeys.malformed"),
            line: t("cardKeys.line"),
            changed: t("cardKeys.changed"),
          }}
        />
      </Card>
      <Card title={t("cardKeys.batches")}>
        <p className="help">{t("cardKeys.undoHelp")}</p>
        <DataTable
          testId="batches-table"
          columns={[
            { id: "id", header: t("cardKeys.batch") },
            { id: "source", header: t("cardKeys.source") },
            { id: "count", header: t("cardKeys.count") },
            { id: "available", header: t("catalog.available") },
            { id: "delivered", header: t("catalog.delivered") },
            { id: "createdAt", header: t("common.created") },
            { id: "actions", header: t("common.actions") },
          ]}
          rows={stock.batches.map((b) => ({
            id: String(b.id),
            cells: {
              id: `#${b.id}`,
              source: b.source,
              count: String(b.keyCount),
              available: String(b.available),
              delivered: String(b.delivered),
              createdAt: formatDateTime(b.createdAt),
              actions: b.undoneAt
                ? t("cardKeys.undone")
                : b.delivered > 0
                  ? ""
                  : {
                      node: (
                        <ActionForm action={undoBatchAction} submitLabel={t("cardKeys.undo")} variant="danger" testId={`undo-${b.id}`}>
                          <HiddenField name="batchId" value={String(b.id)} />
                          <HiddenField name="skuId" value={String(sku.id)} />
                        </ActionForm>
                      ),
                    },
            },
          }))}
          total={stock.batches.length}
          pager={false}
          page={1}
          pageSize={Math.max(stock.batches.length, 1)}
          labels={labels}
        />
      </Card>
      <Card title={t("cardKeys.keys")}>
        <DataTable
          testId="keys-table"
          columns={[
            { id: "id", header: "ID" },
            { id: "status", header: t("common.status") },
            { id: "batch", header: t("cardKeys.batch") },
            { id: "createdAt", header: t("common.created") },
            { id: "key", header: t("cardKeys.key"), wrap: true },
          ]}
          rows={stock.keys.map((k) => ({
            id: String(k.id),
            cells: {
              id: String(k.id),
              status: status(k.status),
              batch: k.batchId ? `#${k.batchId}` : "",
              createdAt: formatDateTime(k.createdAt),
              key: {
                node: (
                  <span className="masked-key">
                    <span aria-label={t("orders.masked")}>••••••••</span>
                    <ActionForm
                      action={revealCardKeyAction}
                      submitLabel={t("cardKeys.reveal")}
                      variant="plain"
                      keepValues
                      testId={`reveal-key-${k.id}`}
                      copyLabel={t("common.copy")}
                      copiedLabel={t("common.copied")}
                    >
                      <HiddenField name="keyId" value={String(k.id)} />
                    </ActionForm>
                  </span>
                ),
              },
            },
          }))}
          total={stock.available + stock.delivered}
          page={page}
          pageSize={PAGE_SIZE}
          labels={labels}
        />
      </Card>
    </>
  );
}
