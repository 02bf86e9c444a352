import { ActionForm } from "@/components/action-form";
import { ContentField } from "@/components/content-preview";
import { FormSchemaEditor } from "@/components/form-schema-editor";
import { HiddenField, TextArea, TextField, Toggle } from "@/components/form-fields";
import type { CategoryNode } from "@/lib/admin-views/list-categories";
import { DELIVERY_FORMATS, FULFILLMENT_TYPES } from "@/lib/catalog/catalog-file-schema";
import { DEFAULT_DELIMITER } from "@/lib/catalog/delivery-format";
import { readManualFormSchema } from "@/lib/forms/form-schema";
import { pickText } from "@/lib/i18n/format";
import type { Locale, Translate } from "@/lib/i18n/messages";
import { formatAmount } from "@/lib/protocol/amount";
import { toLanguageText } from "@/lib/protocol/language";
import { saveProductAction } from "./actions";

export interface EditableProduct {
  id: number;
  slug: string;
  categoryId: number;
  title: unknown;
  description: unknown;
  content: unknown;
  fulfillmentType: string;
  deliveryFormat: string;
  deliveryDelimiter: string;
  manualFormSchema: unknown;
  priceCents: bigint;
  originalPriceCents: bigint;
  isActive: boolean;
  logo: string;
  images: string[];
  afterSalesHours: number;
  afterSalesReplaces: number;
}

/** The product form (create when `product` is undefined): both languages, fulfillment, form schema, pictures. */
export function ProductEditor({
  product,
  categories,
  t,
  locale,
}: {
  product?: EditableProduct;
  categories: CategoryNode[];
  t: Translate;
  locale: Locale;
}) {
  const title = toLanguageText(product?.title);
  const description = toLanguageText(product?.description);
  const content = toLanguageText(product?.content);
  const select = (name: string, label: string, options: { value: string; label: string }[], value?: string) => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name} defaultValue={value}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <ActionForm action={saveProductAction} submitLabel={t("common.save")} keepValues testId="product-form">
      {product ? <HiddenField name="id" value={String(product.id)} /> : null}
      <TextField name="slug" label={t("catalog.slug")} help={t("catalog.slugHelp")} defaultValue={product?.slug} required />
      {select(
        "category_id",
        t("catalog.category"),
        categories.map((c) => ({ value: String(c.id), label: `${"— ".repeat(c.depth)}${pickText(c.name, locale) || c.slug}` })),
        product ? String(product.categoryId) : undefined,
      )}
      <TextField name="title_zh" label={t("catalog.titleZh")} defaultValue={title["zh-CN"]} />
      <TextField name="title_en" label={t("catalog.titleEn")} defaultValue={title.en} />
      <TextArea name="description_zh" label={t("catalog.descriptionZh")} defaultValue={description["zh-CN"]} rows={3} />
      <TextArea name="description_en" label={t("catalog.descriptionEn")} defaultValue={description.en} rows={3} />
      <ContentField name="content_zh" label={t("catalog.contentZh")} defaultValue={content["zh-CN"]} previewLabel={t("catalog.preview")} />
      <ContentField name="content_en" label={t("catalog.contentEn")} defaultValue={content.en} previewLabel={t("catalog.preview")} />
      {select(
        "fulfillment_type",
        t("catalog.fulfillmentType"),
        FULFILLMENT_TYPES.map((f) => ({ value: f, label: t(`catalog.fulfillment.${f}`) })),
        product?.fulfillmentType,
      )}
      {select(
        "delivery_format",
        t("catalog.deliveryFormat"),
        DELIVERY_FORMATS.map((f) => ({ value: f, label: t(`catalog.format.${f}`) })),
        product?.deliveryFormat,
      )}
      <TextField
        name="delivery_delimiter"
        label={t("catalog.delimiter")}
        defaultValue={product?.deliveryDelimiter ?? DEFAULT_DELIMITER}
        required
      />
      <TextField
        name="price"
        inputMode="decimal"
        label={t("catalog.price")}
        defaultValue={product ? formatAmount(product.priceCents) : ""}
        placeholder="10.00"
        required
      />
      <TextField
        name="original_price"
        inputMode="decimal"
        label={t("catalog.originalPrice")}
        defaultValue={product && product.originalPriceCents !== product.priceCents ? formatAmount(product.originalPriceCents) : ""}
      />
      <TextField
        name="after_sales_hours"
        inputMode="numeric"
        label={t("catalog.afterSalesHours")}
        help={t("catalog.afterSalesHoursHelp")}
        defaultValue={String(product?.afterSalesHours ?? 24)}
      />
      <TextField
        name="after_sales_replaces"
        inputMode="numeric"
        label={t("catalog.afterSalesReplaces")}
        help={t("catalog.afterSalesReplacesHelp")}
        defaultValue={String(product?.afterSalesReplaces ?? 1)}
      />
      <Toggle name="is_active" label={t("catalog.active")} defaultChecked={product?.isActive ?? true} />
      <FormSchemaEditor
        initial={readManualFormSchema(product?.manualFormSchema)}
        labels={{
          title: t("catalog.formSchema"),
          help: t("catalog.formSchemaHelp"),
          add: t("catalog.addField"),
          remove: t("catalog.removeField"),
          key: t("catalog.field.key"),
          type: t("catalog.field.type"),
          labelZh: t("catalog.field.labelZh"),
          labelEn: t("catalog.field.labelEn"),
          required: t("catalog.field.required"),
          regex: t("catalog.field.regex"),
          min: t("catalog.field.min"),
          max: t("catalog.field.max"),
          minLen: t("catalog.field.minLen"),
          maxLen: t("catalog.field.maxLen"),
          options: t("catalog.field.options"),
        }}
      />
      <div className="field">
        <label htmlFor="f-logo_file">{t("catalog.uploadLogo")}</label>
        {product?.logo ? (
          <div className="thumbs">
            <Thumb src={product.logo} alt={t("catalog.logo")} t={t} />
          </div>
        ) : null}
        <input type="hidden" name="logo" value={product?.logo ?? ""} />
        <input id="f-logo_file" name="logo_file" type="file" accept="image/png,image/jpeg,image/gif,image/webp" />
      </div>
      {product?.images.length ? (
        <>
          <div className="thumbs">
            {product.images.map((src) => (
              <Thumb key={src} src={src} alt="" t={t} />
            ))}
          </div>
          <TextArea name="images" label={t("catalog.keepImages")} defaultValue={product.images.join("\n")} rows={3} />
        </>
      ) : null}
      <div className="field">
        <label htmlFor="f-image_files">{t("catalog.uploadImages")}</label>
        <input id="f-image_files" name="image_files" type="file" multiple accept="image/png,image/jpeg,image/gif,image/webp" />
      </div>
    </ActionForm>
  );
}

/**
 * Issue 22.7 (decision 0032): the console shows only pictures stored here
 * (/uploads/…). Any other address (an upstream's, from an import, or one typed
 * in) is a placeholder: fetching it from the administrator's browser would
 * tell that host the administrator's address and when they looked. The
 * console's CSP (img-src 'self') refuses such a fetch as well.
 */
function Thumb({ src, alt, t }: { src: string; alt: string; t: Translate }) {
  if (src.startsWith("/uploads/")) return <img src={src} alt={alt} />;
  return (
    <span className="thumb-placeholder" data-testid="external-image" title={t("catalog.externalImage")}>
      {t("catalog.externalImage")}
    </span>
  );
}
