import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { ManualFormSchemaSchema } from "../forms/form-schema";
import { DeliveryFormat } from "../generated/prisma/enums";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { updateChanged } from "../catalog/same-content";
import { parseAmount } from "../protocol/amount";
import { clientFor, loadConnection } from "./connection";
import { applyMarkup, markupBasisPoints } from "./markup";
import { importUpstreamCategories } from "./import-upstream-categories";
import { noUpstreamImportCounts, type UpstreamImportCounts } from "./upstream-import-counts";
import { parseUpstreamProducts, type SkippedUpstreamProduct } from "./parse-upstream-product";
import { priceHoldReason, type HeldUpstreamProduct } from "./price-hold";
import { stockOfImport } from "./source-stock-page";
import { storeUpstreamStock } from "./store-upstream-stock";
import { UpstreamError, type UpstreamCategory, type UpstreamProduct } from "./upstream-client";

export { applyMarkup, markupBasisPoints } from "./markup";

/**
 * The import's result: the counts, each upstream product left out with its
 * reason (issue 8.3), and each product held off sale for its price until an
 * administrator accepts it (issue 22.1).
 */
export interface UpstreamImportResult extends UpstreamImportCounts {
  skipped: SkippedUpstreamProduct[];
  held: HeldUpstreamProduct[];
}

const FORMATS = new Set<string>(Object.values(DeliveryFormat));

/**
 * Imports an upstream's catalogue (admin UI, `npm run cli -- upstream:import`):
 * every category and every product page (inactive ones included) is read
 * first, then ONE transaction creates or updates the mapped local categories,
 * products and SKUs (keyed by the upstream ids: Category.upstreamCategoryId,
 * Product.upstreamProductId, Sku.upstreamSkuId). Products are `upstream`
 * fulfillment with the upstream's titles, description, content, delivery
 * format, delimiter and form schema; stock mirrors the upstream's
 * stock_quantity (-1 → unlimited); prices are the upstream's plus the markup,
 * rounded up to 0.01. What the upstream delisted or no longer lists is
 * delisted here (is_active false; a category no longer listed is hidden);
 * a SKU no longer listed, or of a product no longer listed, also shows 0 here
 * and at the sources pointing at it, which take the stock read (issue 26.1,
 * decision 0049). A row is written only when a value differs, so a re-import of an unchanged
 * catalogue changes nothing. Issue 8.3: each product entry is checked on its
 * own; one that is malformed, priced below zero or clashing is skipped with a
 * reason (in the result) and, when it was imported before, delisted at its
 * last good price. Issue 22.1: a product priced 0.00, or more than 50 % below
 * the last import, is held off sale (in the result, with its reason) until an
 * administrator accepts it; a hold outlasts later imports.
 */
export async function importUpstreamCatalog(input: {
  connectionId: number;
  markupPercent?: string;
  actor: Actor;
}): Promise<UpstreamImportResult> {
  const bp = markupBasisPoints(input.markupPercent ?? "0");
  const conn = await loadConnection(input.connectionId);
  const client = clientFor(conn);
  let categories: UpstreamCategory[];
  let entries: unknown[];
  try {
    categories = await client.categories();
    entries = await client.allProducts();
  } catch (err) {
    const why = err instanceof UpstreamError ? err.message : "unexpected error";
    throw appError("upstream_unreachable", `could not read the upstream catalogue (${why}); nothing was imported`);
  }
  // Issue 8.3: each product on its own; a malformed or negatively priced one is skipped with a reason.
  const { products, skipped } = parseUpstreamProducts(entries);
  return db().$transaction(
    async (tx) => {
      const held: HeldUpstreamProduct[] = [];
      const counts = await importInto(tx, { connId: conn.id, bp, categories, products, skipped, held });
      await writeAuditLog(tx, {
        actor: input.actor,
        action: "upstream.import",
        targetType: "upstream_connection",
        targetId: String(conn.id),
        details: { markupBasisPoints: bp, ...counts, skipped: skipped.length, held: held.length },
      });
      return { ...counts, skipped, held };
    },
    { maxWait: 10_000, timeout: 300_000 },
  );
}

async function importInto(
  tx: Tx,
  {
    connId,
    bp,
    categories,
    products,
    skipped,
    held,
  }: {
    connId: number;
    /** The markup in basis points. */
    bp: number;
    categories: UpstreamCategory[];
    products: UpstreamProduct[];
    /** Products left out, with their reason; this adds those whose category is not listed. */
    skipped: SkippedUpstreamProduct[];
    /** Filled with every product held for its price after this import. */
    held: HeldUpstreamProduct[];
  },
): Promise<UpstreamImportCounts> {
  const counts = noUpstreamImportCounts();

  const catId = await importUpstreamCategories(tx, { connId, categories, counts });

  // ---- products and their SKUs ----
  const localProducts = await tx.product.findMany({ where: { upstreamConnectionId: connId }, include: { skus: true } });
  const prodByUpstream = new Map(localProducts.map((p) => [p.upstreamProductId!, p]));
  const listedProducts = new Set<number>();
  for (const up of products) {
    const categoryId = catId.get(up.category_id);
    if (categoryId === undefined) {
      skipped.push({ upstreamProductId: up.id, reason: "category_id: not a category the upstream lists" });
      continue;
    }
    listedProducts.add(up.id);
    const form = up.manual_form_schema ? ManualFormSchemaSchema.safeParse(up.manual_form_schema) : null;
    const existing = prodByUpstream.get(up.id);
    const upstreamPriceCents = parseAmount(up.price_amount);
    const skuPrices = new Map((existing?.skus ?? []).map((s) => [s.upstreamSkuId!, s.upstreamPriceCents]));
    // Issue 22.1: a new suspicious price holds the product; an earlier hold stays until accepted.
    const holdReason =
      priceHoldReason([
        { field: "price_amount", cents: upstreamPriceCents, previousCents: existing?.upstreamPriceCents },
        ...up.skus.map((s, i) => ({
          field: `skus[${i}].price_amount`,
          cents: parseAmount(s.price_amount),
          previousCents: skuPrices.get(s.id),
        })),
      ]) ??
      existing?.holdReason ??
      null;
    // A form we cannot read would let orders through that the upstream refuses: not sold.
    const sellable = up.is_active && form?.success !== false;
    const data = {
      slug: `up${connId}-${up.slug}`,
      categoryId,
      title: up.title,
      description: up.description,
      content: up.content,
      fulfillmentType: "upstream" as const,
      deliveryFormat: (FORMATS.has(up.delivery_format) ? up.delivery_format : "text") as DeliveryFormat,
      deliveryDelimiter: up.delivery_delimiter.slice(0, 16) || "----",
      // Through JSON: drops undefined keys, so stored and compared values agree.
      manualFormSchema: form?.success ? (JSON.parse(JSON.stringify(form.data)) as object) : { fields: [] },
      logo: up.logo_url,
      images: up.images,
      priceCents: applyMarkup(upstreamPriceCents, bp),
      originalPriceCents: applyMarkup(parseAmount(up.original_price ?? up.price_amount), bp),
      isActive: sellable && holdReason === null,
      upstreamIsActive: sellable,
      upstreamManual: up.fulfillment_type === "manual", // decision 0052
      upstreamPriceCents,
      holdReason,
      deletedAt: null,
    };
    let productId: number;
    if (!existing) {
      productId = (await tx.product.create({ data: { ...data, upstreamConnectionId: connId, upstreamProductId: up.id } })).id;
      counts.productsCreated++;
    } else {
      productId = existing.id;
      const changed = await updateChanged({ existing, data, update: (c) => tx.product.update({ where: { id: existing.id }, data: c }) });
      if (changed && existing.isActive && !data.isActive) counts.productsDelisted++;
      else if (changed) counts.productsUpdated++;
    }
    if (holdReason !== null) held.push({ upstreamProductId: up.id, productId, reason: holdReason });

    const skuByUpstream = new Map((existing?.skus ?? []).map((s) => [s.upstreamSkuId!, s]));
    const listedSkus = new Set<number>();
    for (const [index, s] of up.skus.entries()) {
      listedSkus.add(s.id);
      const skuData = {
        skuCode: `up${connId}-${s.id}-${s.sku_code}`.slice(0, 200),
        specValues: JSON.parse(JSON.stringify(s.spec_values)) as object,
        priceCents: applyMarkup(parseAmount(s.price_amount), bp),
        upstreamPriceCents: parseAmount(s.price_amount),
        isActive: s.is_active,
        stockQuantity: s.stock_quantity < 0 ? null : s.stock_quantity, // D13: -1 is unlimited
        sortOrder: index,
        deletedAt: null,
      };
      const local = skuByUpstream.get(s.id);
      if (!local) {
        await tx.sku.create({ data: { ...skuData, productId, upstreamSkuId: s.id } });
        counts.skusCreated++;
      } else {
        const changed = await updateChanged({
          existing: local,
          data: skuData,
          update: (c) => tx.sku.update({ where: { id: local.id }, data: c }),
        });
        if (changed && local.isActive && !skuData.isActive) counts.skusDelisted++;
        else if (changed) counts.skusUpdated++;
      }
    }
    for (const local of existing?.skus ?? []) {
      if (listedSkus.has(local.upstreamSkuId!) || !local.isActive) continue;
      await tx.sku.update({ where: { id: local.id }, data: { isActive: false } });
      counts.skusDelisted++;
    }
  }
  const unread = new Set(skipped.map((s) => s.upstreamProductId));
  const gone: number[] = [];
  for (const p of localProducts) {
    if (listedProducts.has(p.upstreamProductId!)) continue;
    if (!unread.has(p.upstreamProductId)) gone.push(p.upstreamProductId!);
    if (!p.isActive) continue;
    await tx.product.update({ where: { id: p.id }, data: { isActive: false } });
    counts.productsDelisted++;
  }
  // Issue 26.1: the sources of these SKUs take the stock read; a SKU no longer listed, or of a product
  // no longer listed, counts 0 there and on our copy (decision 0049). A skipped product is left as it was.
  const read = products.filter((p) => listedProducts.has(p.id));
  await storeUpstreamStock(tx, connId, stockOfImport(read, gone), { ordered: false, copies: "gone" });
  return counts;
}
