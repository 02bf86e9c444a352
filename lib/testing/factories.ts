import crypto from "node:crypto";
import { db } from "../db/client";
import { createUser } from "../users/create-user";
import { createApiKey } from "../credentials/create-api-key";
import { addCardKeys } from "../catalog/add-card-keys";
import type { DeliveryFormat, FulfillmentType } from "../generated/prisma/enums";

// One set of factories for integration tests (and e2e fixtures). Every call
// makes unique slugs/codes/emails, so tests in one database never collide.

const uid = () => crypto.randomBytes(4).toString("hex");

export async function makeBuyer(opts: { pointsCents?: bigint } = {}) {
  const user = await createUser({ email: `buyer-${uid()}@example.test`, initialPointsCents: opts.pointsCents ?? 100_000n });
  const key = await createApiKey(user.id, "test");
  return { user, ...key };
}

export async function makeCategory(opts: { parentId?: number; sortOrder?: number } = {}) {
  const slug = `cat-${uid()}`;
  return db().category.create({
    data: { slug, name: { "zh-CN": `分类 ${slug}`, en: `Category ${slug}` }, sortOrder: opts.sortOrder ?? 0, parentId: opts.parentId },
  });
}

export interface MakeProductOptions {
  categoryId?: number;
  fulfillmentType?: FulfillmentType;
  deliveryFormat?: DeliveryFormat;
  priceCents?: bigint;
  isActive?: boolean;
  skuActive?: boolean;
  stockQuantity?: number | null;
  cardKeys?: string[];
  manualFormSchema?: object;
  content?: { "zh-CN": string; en: string };
  logo?: string;
  images?: string[];
  specValues?: object;
}

/** A product with one SKU (and card keys for `auto`). */
export async function makeProduct(opts: MakeProductOptions = {}) {
  const categoryId = opts.categoryId ?? (await makeCategory()).id;
  const slug = `prod-${uid()}`;
  const priceCents = opts.priceCents ?? 1000n;
  const product = await db().product.create({
    data: {
      slug,
      categoryId,
      title: { "zh-CN": `商品 ${slug}`, en: `Product ${slug}` },
      description: { "zh-CN": "描述", en: "Description" },
      content: opts.content ?? { "zh-CN": "详情", en: "Details" },
      fulfillmentType: opts.fulfillmentType ?? "auto",
      deliveryFormat: opts.deliveryFormat ?? "text",
      manualFormSchema: opts.manualFormSchema ?? { fields: [] },
      logo: opts.logo ?? "",
      images: opts.images ?? [],
      priceCents,
      originalPriceCents: priceCents + 200n,
      isActive: opts.isActive ?? true,
    },
  });
  const sku = await db().sku.create({
    data: {
      productId: product.id,
      skuCode: `SKU-${uid()}`,
      specValues: opts.specValues ?? { name: "default" },
      priceCents,
      isActive: opts.skuActive ?? true,
      stockQuantity: opts.stockQuantity === undefined ? null : opts.stockQuantity,
    },
  });
  if (opts.cardKeys?.length) await addCardKeys(db(), sku.id, opts.cardKeys);
  return { product, sku };
}

export function cardKeysFor(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${uid()}-${i}`);
}
