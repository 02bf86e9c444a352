import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { signedRawRequest, type Creds } from "@/lib/testing/test-client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer, makeCategory, makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import type { ProductPage } from "@/lib/testing/wire-types";
import { stringMatching } from "@/lib/testing/matchers";

// Issue 22.5, over real HTTP under all four prefixes: a product that is no
// longer listed (deleted, or its category deleted) shows in
// `updated_after … include_inactive` only as a tombstone; nothing of its
// title, content, prices, level prices or images is in the answer.

let server: AppServer;
let creds: Creds;
const secretText = { "zh-CN": "机密详情-TOMB", en: "secret-details-TOMB" };
const made: Record<"deleted" | "delisted" | "inactive", { id: number; slug: string; categoryId: number }> = {} as never;

const get = (prefix: string, path: string) => signedRawRequest(server.baseUrl, creds, { method: "GET", path: prefix + path });

beforeAll(async () => {
  const url = await useTestDatabase();
  const buyer = await makeBuyer();
  creds = { apiKey: buyer.apiKey, apiSecret: buyer.apiSecret };
  const { memberLevelId } = await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } });
  for (const name of ["deleted", "delisted", "inactive"] as const) {
    const categoryId = (await makeCategory()).id;
    const { product, sku } = await makeProduct({
      categoryId,
      fulfillmentType: "manual",
      stockQuantity: 7,
      priceCents: 4321n,
      content: secretText,
      logo: "/uploads/secret-logo-TOMB.png",
      images: ["https://img.example/secret-image-TOMB.png"],
      isActive: name !== "inactive",
    });
    // The buyer's own level price: the most private figure a product carries.
    await db().skuLevelPrice.create({ data: { skuId: sku.id, levelId: memberLevelId, priceCents: 3333n } });
    made[name] = { id: product.id, slug: product.slug, categoryId };
  }
  server = await startAppServer(url);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe("issue 22.5: incremental sync shows deleted products only as tombstones", () => {
  it("issue 22.5: a deleted and a delisted product are tombstones in updated_after with include_inactive, under all four prefixes; an inactive one stays whole", async () => {
    const allIds = [made.deleted.id, made.delisted.id, made.inactive.id].sort();
    const idsAfter = async (prefix: string, token: string) => {
      const res = await get(prefix, `/products?updated_after=${encodeURIComponent(token)}&include_inactive=true&page_size=100`);
      expect(res.status).toBe(200);
      const page = res.json<ProductPage>();
      return { page, ids: (page.items as { id: number }[]).map((i) => i.id).sort() };
    };
    // The catalogue is eventually consistent: poll (bounded) until the three products show, then take the token.
    await expect.poll(async () => (await idsAfter("/api/v1/upstream", "0")).ids, { timeout: 10_000 }).toEqual(allIds);
    const token = (await idsAfter("/api/v1/upstream", "0")).page.sync_token as string;
    await db().product.update({ where: { id: made.deleted.id }, data: { deletedAt: new Date() } });
    await db().category.update({ where: { id: made.delisted.categoryId }, data: { deletedAt: new Date() } });
    // A real change (so a rerun changes it again) moves the inactive product too.
    await db().product.update({ where: { id: made.inactive.id }, data: { priceCents: { increment: 1n } } });

    for (const { profile, prefix } of ALL_PREFIXES) {
      await expect.poll(async () => (await idsAfter(prefix, token)).ids, { timeout: 10_000 }).toEqual(allIds);
      const items = (await idsAfter(prefix, token)).page.items as Record<string, unknown>[];
      for (const name of ["deleted", "delisted"] as const) {
        const item = items.find((i) => i.id === made[name].id);
        const empty = { "zh-CN": "", en: "" };
        expect(item, `${prefix} ${name}`).toEqual({
          id: made[name].id,
          slug: "",
          title: empty,
          description: empty,
          content: empty,
          price_amount: "0.00",
          original_price: "0.00",
          fulfillment_type: "manual",
          ...(profile === "P" ? { manual_form_schema: { fields: [] } } : {}),
          is_active: false,
          category_id: made[name].categoryId,
          delivery_format: "text",
          delivery_delimiter: "",
          logo_url: "",
          images: [],
          has_sku: false,
          skus: [],
          updated_at: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        });
        expect((await get(prefix, `/products/${made[name].id}`)).status).toBe(404); // D11 holds
      }
      // Nothing of the tombstones leaks anywhere in the answer; the inactive (still listed) product keeps its fields (D11).
      const inactive = items.find((i) => i.id === made.inactive.id)!;
      expect(inactive).toMatchObject({ is_active: false, slug: made.inactive.slug, content: secretText, price_amount: "33.33" });
      // Without their timestamps: "…:33:33.3…Z" must not read as the level price 33.33.
      const others = JSON.stringify(items.filter((i) => i !== inactive).map(({ updated_at: _stamp, ...rest }) => rest));
      for (const leak of [made.deleted.slug, made.delisted.slug, "TOMB", "43.21", "45.21", "33.33", "img.example"])
        expect(others, `${prefix}: ${leak}`).not.toContain(leak);
    }
  });
});
