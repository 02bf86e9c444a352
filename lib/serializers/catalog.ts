import type { CatalogCategory, CatalogProduct, CatalogSku } from "../catalog/load-catalog";
import { stripImages } from "../catalog/strip-images";
import { priceTiersFor, productPriceFor, skuPriceFor, type PriceBuyer } from "../catalog/buyer-prices";
import { formatAmount } from "../protocol/amount";
import type { LanguageText } from "../protocol/language";
import type { Profile } from "../protocol/profiles";
import { wireTime } from "../protocol/sync-time";

// Wire shapes of sections 2.2-2.4 per profile (D10-D15). Field order follows
// the specification's tables.

export interface ImageSettings {
  publicBaseUrl: string;
  imageExposure: boolean;
}

export function serializeCategory(c: CatalogCategory) {
  return { id: c.id, parent_id: c.parentId ?? 0, slug: c.slug, name: c.name, sort_order: c.sortOrder };
}

/** D13: -1 and `unlimited` when there is no limit. */
export function skuStock(stock: number | null) {
  return {
    stock_status: stock === null ? "unlimited" : stock > 0 ? "available" : "out_of_stock",
    stock_quantity: stock === null ? -1 : stock,
  } as const;
}

/** Issue 38 extension: the SKU's quantity tiers at this buyer's prices, only when it has tiers. */
function tiersWire(s: CatalogSku, buyer: PriceBuyer) {
  if (s.tiers.length === 0) return {};
  return { price_tiers: priceTiersFor(s, buyer).map((t) => ({ min_quantity: t.minQuantity, price_amount: formatAmount(t.priceCents) })) };
}

export function serializeSku(s: CatalogSku, buyer: PriceBuyer) {
  return {
    id: s.id,
    sku_code: s.skuCode,
    spec_values: s.specValues,
    price_amount: formatAmount(skuPriceFor(s, buyer)),
    ...tiersWire(s, buyer),
    ...skuStock(s.stock),
    is_active: s.isActive,
    updated_at: wireTime(s.updatedAt),
  };
}

/** `buyer`: the key's user's member level and contract prices, where they apply (lib/catalog/buyer-prices.ts). */
export function serializeProduct(profile: Profile, p: CatalogProduct, images: ImageSettings, buyer: PriceBuyer) {
  const show = images.imageExposure;
  const content: LanguageText = show ? p.content : { "zh-CN": stripImages(p.content["zh-CN"]), en: stripImages(p.content.en) };
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    description: p.description,
    content,
    price_amount: formatAmount(productPriceFor(p, buyer)),
    original_price: formatAmount(p.originalPriceCents),
    fulfillment_type: p.fulfillmentType,
    ...(profile === "P" ? { manual_form_schema: p.manualFormSchema } : {}),
    // A delisted product appears only in `updated_after` answers, as inactive.
    is_active: p.isActive && p.listed,
    category_id: p.categoryId,
    delivery_format: p.deliveryFormat,
    delivery_delimiter: p.deliveryDelimiter,
    logo_url: show && p.logo ? absoluteUrl(images.publicBaseUrl, p.logo) : "",
    images: show ? p.images.filter(Boolean).map((i) => absoluteUrl(images.publicBaseUrl, i)) : [],
    // D12: more than one SKU, or a single SKU that has spec values.
    has_sku: p.skus.length > 1 || (p.skus.length === 1 && Object.keys(p.skus[0].specValues).length > 0),
    skus: p.skus.map((s) => serializeSku(s, buyer)),
    // Issue 12.1 extension.
    updated_at: wireTime(p.updatedAt),
  };
}

/** D15: stored paths become absolute URLs under the public base URL; absolute URLs stay as they are. */
export function absoluteUrl(base: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
