import crypto from "node:crypto";
import { adminActor, SYSTEM_ACTOR, type Actor } from "../audit/actor";
import { createAdmin } from "../admins/create-admin";
import { withCardKeyStage } from "../catalog/card-key-transaction";
import { saveCategory } from "../catalog/save-category";
import { saveProduct } from "../catalog/save-product";
import { saveSku } from "../catalog/save-sku";
import { createApiKey } from "../credentials/create-api-key";
import { db } from "../db/client";
import type { DeliveryFormat, FulfillmentType } from "../generated/prisma/enums";
import { formatAmount } from "../protocol/amount";
import { createLevel } from "../levels/create-level";
import { createUser } from "../users/create-user";

// One set of factories for integration tests (and e2e fixtures), built on the
// services an operator uses (createUser, createApiKey, saveCategory,
// saveProduct, saveSku, the card-key import), so test data passes the same rules as
// real data. A test that needs a state the services refuse (a deleted row,
// data stored before a rule existed) makes a valid row here and then changes
// it with an explicit update, saying why. Every call makes unique
// slugs/codes/emails, so tests in one database never collide.

const uid = () => crypto.randomBytes(4).toString("hex");

export async function makeBuyer(opts: { pointsCents?: bigint } = {}) {
  const user = await createUser({
    email: `buyer-${uid()}@example.test`,
    initialPointsCents: opts.pointsCents ?? 100_000n,
    actor: SYSTEM_ACTOR,
  });
  const key = await createApiKey({ userId: user.id, name: "test", actor: SYSTEM_ACTOR });
  return { user, ...key };
}

/** The administrator the catalogue factories act as: one per database (tests may switch databases, onDatabase). */
const factoryAdmins = new Map<string, Promise<{ actor: Actor }>>();
function factoryAdmin(): Promise<{ actor: Actor }> {
  const key = process.env.DATABASE_URL ?? "";
  let admin = factoryAdmins.get(key);
  if (!admin) {
    admin = createAdmin(
      { email: `factory-${uid()}@example.test`, password: crypto.randomBytes(16).toString("hex") },
      { actor: SYSTEM_ACTOR },
    ).then((a) => ({
      actor: adminActor({ id: a.id, ip: null }),
    }));
    admin.catch(() => factoryAdmins.delete(key));
    factoryAdmins.set(key, admin);
  }
  return admin;
}

export async function makeCategory(opts: { parentId?: number; sortOrder?: number } = {}) {
  const slug = `cat-${uid()}`;
  const { id } = await saveCategory(
    { slug, name: { "zh-CN": `分类 ${slug}`, en: `Category ${slug}` }, sortOrder: opts.sortOrder ?? 0, parentId: opts.parentId ?? null },
    await factoryAdmin(),
  );
  return db().category.findUniqueOrThrow({ where: { id } });
}

export interface MakeProductOptions {
  categoryId?: number;
  fulfillmentType?: FulfillmentType;
  deliveryFormat?: DeliveryFormat;
  priceCents?: bigint;
  isActive?: boolean;
  skuActive?: boolean;
  /** Ignored for `auto` products, whose stock is their card keys (D13), as saveSku does. */
  stockQuantity?: number | null;
  cardKeys?: string[];
  manualFormSchema?: object;
  content?: { "zh-CN": string; en: string };
  logo?: string;
  images?: string[];
  specValues?: Record<string, string>;
}

/** A product with one SKU (and card keys for `auto`). */
export async function makeProduct(opts: MakeProductOptions = {}) {
  const admin = await factoryAdmin();
  const categoryId = opts.categoryId ?? (await makeCategory()).id;
  const slug = `prod-${uid()}`;
  const price = formatAmount(opts.priceCents ?? 1000n);
  const { id: productId } = await saveProduct(
    {
      slug,
      categoryId,
      title: { "zh-CN": `商品 ${slug}`, en: `Product ${slug}` },
      description: { "zh-CN": "描述", en: "Description" },
      content: opts.content ?? { "zh-CN": "详情", en: "Details" },
      fulfillmentType: opts.fulfillmentType ?? "auto",
      deliveryFormat: opts.deliveryFormat ?? "text",
      deliveryDelimiter: "----",
      manualFormSchema: (opts.manualFormSchema ?? { fields: [] }) as never,
      price,
      originalPrice: formatAmount((opts.priceCents ?? 1000n) + 200n),
      isActive: opts.isActive ?? true,
      logo: opts.logo ?? "",
      images: opts.images ?? [],
    },
    admin,
  );
  const sku = await makeSku({
    productId,
    priceCents: opts.priceCents,
    specValues: opts.specValues,
    isActive: opts.skuActive,
    stockQuantity: opts.stockQuantity,
    cardKeys: opts.cardKeys,
  });
  return { product: await db().product.findUniqueOrThrow({ where: { id: productId } }), sku };
}

/** Another SKU of a product (makeProduct makes the first). */
export async function makeSku(opts: {
  productId: number;
  skuCode?: string;
  priceCents?: bigint;
  specValues?: Record<string, string>;
  isActive?: boolean;
  stockQuantity?: number | null;
  cardKeys?: string[];
}) {
  const { id } = await saveSku(
    {
      productId: opts.productId,
      skuCode: opts.skuCode ?? `SKU-${uid()}`,
      specValues: opts.specValues ?? { name: "default" },
      price: formatAmount(opts.priceCents ?? 1000n),
      isActive: opts.isActive ?? true,
      stockQuantity: opts.stockQuantity ?? null,
    },
    await factoryAdmin(),
  );
  const sku = await db().sku.findUniqueOrThrow({ where: { id } });
  // The path every import takes (COPY, one INSERT), as one "import" batch.
  if (opts.cardKeys?.length) {
    const keys = opts.cardKeys;
    await withCardKeyStage(
      async (_tx, stage) => {
        for (const key of keys) await stage.add(sku.skuCode, key);
        await stage.moveInto();
      },
      { source: "import" },
    );
  }
  return sku;
}

export function cardKeysFor(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${uid()}-${i}`);
}

/** A member level (issue 12.4), made with the console's service. */
export async function makeLevel() {
  const slug = `lvl-${uid()}`;
  return createLevel({ slug, name: { "zh-CN": `等级 ${slug}`, en: `Level ${slug}` } }, { actor: SYSTEM_ACTOR });
}
