import type { CatalogProduct } from "./load-catalog";

// Issue 22.5 (docs/decisions/0031-tombstones-and-cancelled-catalogue-events.md):
// a product that is no longer listed (it or its category deleted, D11) is
// shown to a downstream only as a tombstone: its id, is_active false, its
// updated_at and no SKUs; every other field the wire schema requires is there
// with an empty value ("", {"zh-CN":"","en":""}, "0.00", [], {fields: []}).
// Fields whose schema has no empty value keep the product's own (an enum, and
// the category id, which is at least 1). Its detail is 404 (D11); its title,
// content, prices, level prices and images leak through no other answer
// either. Applied once, where the catalogue snapshot and the catalogue events
// load the product, so every answer built from them is a tombstone already.

const EMPTY_TEXT = { "zh-CN": "", en: "" } as const;

/** The snapshot's form of a product that is not listed; a listed product is returned as it is. */
export function tombstoneUnlisted(p: CatalogProduct): CatalogProduct {
  if (p.listed) return p;
  return {
    id: p.id,
    slug: "",
    categoryId: p.categoryId,
    title: { ...EMPTY_TEXT },
    description: { ...EMPTY_TEXT },
    content: { ...EMPTY_TEXT },
    fulfillmentType: p.fulfillmentType,
    deliveryFormat: p.deliveryFormat,
    deliveryDelimiter: "",
    manualFormSchema: { fields: [] },
    logo: "",
    images: [],
    priceCents: 0n,
    originalPriceCents: 0n,
    isActive: false,
    listed: false,
    categorySort: p.categorySort,
    updatedAt: p.updatedAt,
    skus: [],
  };
}
