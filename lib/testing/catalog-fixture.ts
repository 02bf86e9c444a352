import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "@/lib/testing/test-database";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct, makeSku } from "@/lib/testing/factories";
import { signedRawRequest, type Creds } from "@/lib/testing/test-client";

// Ping and the catalogue endpoints over real HTTP, for each profile and
// prefix: sections 2.1-2.4 and 4.1-4.4, D2-D5, D10-D16.

export let server: AppServer;
export let buyer: Awaited<ReturnType<typeof makeBuyer>>;
export let creds: Creds;
export const ids: Record<string, number> = {};
export const skuIds: Record<string, number> = {};
export let categoryIds: { a: number; b: number; child: number; deleted: number };

export const FORM_SCHEMA = {
  fields: [{ key: "game_uid", type: "text", label: { "zh-CN": "UID", en: "UID" }, required: true, max_len: 32 }],
};
export const IMAGE_CONTENT = {
  "zh-CN": '图文 ![a](/uploads/a.png) 中 <IMG SRC="/x.png"> 后 ![r][pic]\n\n[pic]: /uploads/r.png\n',
  en: 'Text ![a](http://h/a.png "t") mid <img alt="1>2" src=\'/y.png\'/> end ![shortcut]\n\n[shortcut]: /s.png\n',
};

export async function get(prefix: string, path: string) {
  return signedRawRequest(server.baseUrl, creds, { method: "GET", path: prefix + path });
}

/** One catalogue per test file, served by the real server (registers the file's hooks). */
export function useCatalogFixture(): void {
  beforeAll(async () => {
    const url = await useTestDatabase();
    await db().siteSettings.update({
      where: { id: 1 },
      data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000, publicBaseUrl: "https://shop.example.com/", siteName: "Test Site" },
    });
    // Category order: child (0), b (1), a (2); the deleted one is never shown.
    const a = await makeCategory({ sortOrder: 2 });
    const b = await makeCategory({ sortOrder: 1 });
    const child = await makeCategory({ sortOrder: 0, parentId: a.id });
    const deleted = await makeCategory({ sortOrder: 3 });
    categoryIds = { a: a.id, b: b.id, child: child.id, deleted: deleted.id };

    const mk = async (name: string, opts: Parameters<typeof makeProduct>[0]) => {
      const { product, sku } = await makeProduct(opts);
      ids[name] = product.id;
      skuIds[name] = sku.id;
      return { product, sku };
    };
    await mk("autoB", {
      categoryId: b.id,
      priceCents: 1230n,
      cardKeys: cardKeysFor("CAT-KEY", 3),
      images: ["/uploads/1.png", "https://cdn.example.net/2.png"],
      content: IMAGE_CONTENT,
    });
    // A path without its leading slash (the console refuses one; an older import stored it): D15 still makes it absolute.
    await db().product.update({ where: { id: ids.autoB }, data: { logo: "uploads/logo.png" } });
    await mk("manualA", { categoryId: a.id, fulfillmentType: "manual", stockQuantity: 5, manualFormSchema: FORM_SCHEMA });
    // The console stores the schema with its defaults filled in; this one is stored literally, to be served as stored.
    await db().product.update({ where: { id: ids.manualA }, data: { manualFormSchema: FORM_SCHEMA } });
    await mk("unlimitedA", { categoryId: a.id, fulfillmentType: "upstream", stockQuantity: null });
    await mk("inactiveA", { categoryId: a.id, isActive: false });
    await mk("emptyChild", { categoryId: child.id, cardKeys: [] });
    await mk("deletedB", { categoryId: b.id });
    await db().product.update({ where: { id: ids.deletedB }, data: { deletedAt: new Date() } });
    await mk("inDeletedCategory", { categoryId: deleted.id });
    // Deleted after its product was made: the console refuses a product in a deleted category.
    await db().category.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    const multi = await mk("multiSkuB", { categoryId: b.id, fulfillmentType: "manual", stockQuantity: 0 });
    await makeSku({
      productId: multi.product.id,
      skuCode: `X-${multi.sku.id}-2`,
      priceCents: 2000n,
      specValues: {},
      isActive: false,
      stockQuantity: 7,
    });
    const gone = await makeSku({ productId: multi.product.id, skuCode: `X-${multi.sku.id}-3`, priceCents: 3000n, specValues: {} });
    await db().sku.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    await mk("noSpecs", { categoryId: b.id, specValues: {}, fulfillmentType: "manual", stockQuantity: 1 });
    // D5: a language object missing a key is completed with "".
    await db().product.update({ where: { id: ids.noSpecs }, data: { title: { "zh-CN": "只有中文" }, description: {} } });

    buyer = await makeBuyer({ pointsCents: 123_456n });
    creds = buyer;
    server = await startAppServer(url);
  });
  afterAll(async () => {
    await server?.stop();
  });
}

/** Active products in list order (D10): category sort_order, then id. */
export function expectedActiveOrder(): number[] {
  return [ids.emptyChild, ids.autoB, ids.multiSkuB, ids.noSpecs, ids.manualA, ids.unlimitedA].sort((x, y) => order(x) - order(y) || x - y);
}
export function order(id: number): number {
  if (id === ids.emptyChild) return 0;
  if ([ids.autoB, ids.multiSkuB, ids.noSpecs].includes(id)) return 1;
  return 2;
}
