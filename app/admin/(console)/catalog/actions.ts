"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { redirect } from "next/navigation";
import { saveCategory } from "@/lib/catalog/save-category";
import { saveProduct } from "@/lib/catalog/save-product";
import { saveSku } from "@/lib/catalog/save-sku";
import { saveUpload } from "@/lib/catalog/save-upload";
import { appError } from "@/lib/errors";
import { AfterSalesHoursTextSchema, AfterSalesReplacesTextSchema } from "@/lib/after-sales/set-after-sales-hours";

// Thin: the form's strings become the services' inputs; the services validate
// (with the catalogue import's rules) and write the audit rows.

const Str = z.string().default("");
const Id = z.string().regex(/^\d*$/).default("");
const optId = (s: string) => (s ? Number(s) : undefined);

export async function saveCategoryAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(
    z.object({ id: Id, slug: Str, name_zh: Str, name_en: Str, sort_order: Str, parent_id: Id }),
    form,
    async (f, { admin, t }) => {
      await saveCategory(
        {
          id: optId(f.id),
          slug: f.slug.trim(),
          name: { "zh-CN": f.name_zh.trim(), en: f.name_en.trim() },
          sortOrder: f.sort_order.trim() || "0",
          parentId: f.parent_id ? Number(f.parent_id) : null,
        },
        { actor: adminActor(admin) },
      );
      revalidatePath("/admin/catalog", "layout");
      return { ok: true, message: t("common.saved") };
    },
  );
}

/** Pictures from the form's file inputs, stored in the database (decision 0044); returns their paths. */
async function uploads(form: FormData, name: string): Promise<string[]> {
  const out: string[] = [];
  for (const v of form.getAll(name)) {
    if (typeof v === "string" || v.size === 0) continue;
    out.push(await saveUpload(Buffer.from(await v.arrayBuffer())));
  }
  return out;
}

function lines(s: string): string[] {
  return s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

const ProductForm = z.object({
  id: Id,
  slug: Str,
  category_id: Id,
  title_zh: Str,
  title_en: Str,
  description_zh: Str,
  description_en: Str,
  content_zh: Str,
  content_en: Str,
  fulfillment_type: Str,
  delivery_format: Str,
  delivery_delimiter: Str,
  manual_form_schema: Str,
  price: Str,
  original_price: Str,
  is_active: Str,
  logo: Str,
  images: Str,
  after_sales_hours: Str,
  after_sales_replaces: Str,
});

/** Issue 26.3: the window field; empty leaves it as it is (a new product: 24 h). */
function afterSalesHours(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const hours = AfterSalesHoursTextSchema.safeParse(text);
  if (!hours.success) throw appError("bad_request", `after-sales window ${hours.error.issues[0].message}`);
  return hours.data;
}

/** Issue 33.4: times one line may be replaced within the window; empty leaves it as it is (a new product: 1). */
function afterSalesReplaces(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const replaces = AfterSalesReplacesTextSchema.safeParse(text);
  if (!replaces.success) throw appError("bad_request", `replacements per line ${replaces.error.issues[0].message}`);
  return replaces.data;
}

export async function saveProductAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let createdId: number | undefined;
  const state = await runAdminAction(ProductForm, form, async (f, { admin, t }) => {
    let formSchema: unknown;
    try {
      formSchema = JSON.parse(f.manual_form_schema || '{"fields":[]}');
    } catch {
      throw appError("bad_request", "manual form: not valid JSON");
    }
    const [logo] = await uploads(form, "logo_file");
    const images = [...lines(f.images), ...(await uploads(form, "image_files"))];
    const saved = await saveProduct(
      {
        id: optId(f.id),
        slug: f.slug.trim(),
        categoryId: f.category_id,
        title: { "zh-CN": f.title_zh.trim(), en: f.title_en.trim() },
        description: { "zh-CN": f.description_zh, en: f.description_en },
        content: { "zh-CN": f.content_zh, en: f.content_en },
        fulfillmentType: f.fulfillment_type as never,
        deliveryFormat: f.delivery_format as never,
        deliveryDelimiter: f.delivery_delimiter,
        manualFormSchema: formSchema as never,
        price: f.price.trim(),
        originalPrice: f.original_price.trim() || undefined,
        isActive: f.is_active === "true",
        logo: logo ?? f.logo.trim(),
        images,
        afterSalesHours: afterSalesHours(f.after_sales_hours),
        afterSalesReplaces: afterSalesReplaces(f.after_sales_replaces),
      },
      { actor: adminActor(admin) },
    );
    revalidatePath("/admin/catalog", "layout");
    if (saved.created) createdId = saved.id;
    return { ok: true, message: t("catalog.productSaved") };
  });
  // Outside runAdminAction: a redirect is not an error to report.
  if (createdId) redirect(`/admin/catalog/products/${createdId}`);
  return state;
}

const SkuForm = z.object({ id: Id, product_id: Id, sku_code: Str, spec_values: Str, price: Str, sku_active: Str, stock: Str }).loose();

/** The form's `level_price.<slug>` inputs, one per level; blank = no level price (saveSku checks slugs and amounts). */
function levelPrices(f: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f))
    if (k.startsWith("level_price.") && typeof v === "string") out[k.slice("level_price.".length)] = v.trim();
  return out;
}

export async function saveSkuAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(SkuForm, form, async (f, { admin, t }) => {
    const specValues: Record<string, string> = {};
    for (const l of lines(f.spec_values)) {
      const at = l.indexOf("=");
      if (at < 1) throw appError("bad_request", `spec values: "${l.slice(0, 50)}" is not name=value`);
      specValues[l.slice(0, at).trim()] = l.slice(at + 1).trim();
    }
    await saveSku(
      {
        id: optId(f.id),
        productId: f.product_id,
        skuCode: f.sku_code.trim(),
        specValues,
        price: f.price.trim(),
        isActive: f.sku_active === "true",
        stockQuantity: f.stock.trim() === "" ? null : Number(f.stock.trim()),
        levelPrices: levelPrices(f),
      },
      { actor: adminActor(admin) },
    );
    revalidatePath("/admin/catalog", "layout");
    return { ok: true, message: t("catalog.skuSaved") };
  });
}
