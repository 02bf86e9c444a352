import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ALL_PREFIXES } from "@/lib/protocol/profiles";
import { get, ids, skuIds, useCatalogFixture } from "@/lib/testing/catalog-fixture";
import type { ProductDetail, ProductPage } from "@/lib/testing/wire-types";

// The catalogue over real HTTP as data and settings change: D13 freshness,
// D15 image exposure (the catalogue is in lib/testing/catalog-fixture.ts).
useCatalogFixture();

describe("freshness and settings", () => {
  it("stock figures are never more than one second stale (D13)", async () => {
    const path = `/api/v1/upstream/products/${ids.autoB}`;
    const before = (await get("", path)).json<ProductDetail>().skus[0].stock_quantity;
    const key = await db().cardKey.findFirstOrThrow({ where: { skuId: skuIds.autoB, status: "available" } });
    await db().cardKey.update({ where: { id: key.id }, data: { status: "delivered", deliveredAt: new Date() } });
    await db().sku.update({ where: { id: skuIds.manualA }, data: { stockQuantity: 4 } });
    const committed = Date.now();
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() - committed)));
    for (const prefix of ["/api/v1/upstream", "/v1/provider"]) {
      expect((await get(prefix, `/products/${ids.autoB}`)).json<ProductDetail>().skus[0].stock_quantity).toBe(before - 1);
      const list = (await get(prefix, "/products")).json<ProductPage>().items as { id: number; skus: { stock_quantity: number }[] }[];
      expect(list.find((p) => p.id === ids.manualA)!.skus[0].stock_quantity).toBe(4);
    }
  });

  it('image exposure off: logo_url "", images [], every image form removed from content in all languages (D15)', async () => {
    await db().siteSettings.update({ where: { id: 1 }, data: { imageExposure: false } });
    await new Promise((r) => setTimeout(r, 1100));
    for (const { prefix } of ALL_PREFIXES) {
      const detail = (await get(prefix, `/products/${ids.autoB}`)).json();
      const listed = ((await get(prefix, "/products")).json<ProductPage>().items as { id: number }[]).find((p) => p.id === ids.autoB);
      for (const p of [detail, listed] as { logo_url: string; images: string[]; content: Record<string, string> }[]) {
        expect(p.logo_url).toBe("");
        expect(p.images).toEqual([]);
        for (const lang of ["zh-CN", "en"]) {
          expect(p.content[lang]).not.toMatch(/png|<img|!\[/i);
        }
        expect(p.content["zh-CN"]).toContain("图文");
        expect(p.content.en).toContain("mid");
      }
    }
    await db().siteSettings.update({ where: { id: 1 }, data: { imageExposure: true } });
  });
});
