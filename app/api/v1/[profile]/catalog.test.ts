import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ALL_PREFIXES, type Profile } from "@/lib/protocol/profiles";
import { signedRawRequest } from "@/lib/testing/test-client";
import {
  buyer,
  categoryIds,
  creds,
  expectedActiveOrder,
  FORM_SCHEMA,
  get,
  ids,
  IMAGE_CONTENT,
  server,
  skuIds,
  useCatalogFixture,
} from "@/lib/testing/catalog-fixture";
import type { AnyAnswer, ProductDetail, ProductPage } from "@/lib/testing/wire-types";
import type { Category } from "@/lib/protocol/wire-responses";
import { anyString, stringContaining, stringMatching } from "@/lib/testing/matchers";

// Ping and the catalogue endpoints over real HTTP, for each profile and
// prefix: sections 2.1-2.4 and 4.1-4.4, D2-D5, D10-D16 (the catalogue is in
// lib/testing/catalog-fixture.ts; freshness and settings in catalog-freshness.test.ts).
useCatalogFixture();

describe.each(ALL_PREFIXES)("$prefix (Profile $profile)", ({ profile, prefix }: { profile: Profile; prefix: string }) => {
  it("ping (GET and POST) reports the account: section 2.1, D4, D16", async () => {
    const settings = await db().siteSettings.findUniqueOrThrow({ where: { id: 1 } });
    const level = await db().memberLevel.findFirstOrThrow({ where: { isDefault: true } });
    for (const method of ["GET", "POST"]) {
      const res = await signedRawRequest(server.baseUrl, creds, {
        method,
        path: `${prefix}/ping`,
        body: method === "POST" ? "{}" : undefined,
      });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      const body = res.json<object>();
      expect(Object.keys(body)[0]).toBe("ok"); // D2
      expect(body).toEqual({
        ok: true,
        site_name: "Test Site",
        provider_type: "SVC_KEY",
        protocol_version: "1.0",
        instance_id: settings.instanceId,
        user_id: buyer.user.id,
        balance: "1234.56",
        credit_limit: "0.00", // issue 38 extension: no credit line
        currency: "CNY",
        member_level: { id: level.id, slug: "default", name: { "zh-CN": "普通会员", en: "Member" } },
      });
    }
  });

  it("categories: parent_id 0 at the top, sort order, no deleted ones (2.2)", async () => {
    const res = await get(prefix, "/categories");
    expect(res.status).toBe(200);
    const { ok, categories } = res.json<{ ok: boolean; categories: Category[] }>();
    expect(ok).toBe(true);
    expect(categories.map((c: { id: number }) => c.id)).toEqual([categoryIds.child, categoryIds.b, categoryIds.a]);
    const child = categories[0];
    expect(child).toEqual({
      id: categoryIds.child,
      parent_id: categoryIds.a,
      slug: anyString(),
      name: { "zh-CN": anyString(), en: anyString() },
      sort_order: 0,
    });
    expect(categories[1].parent_id).toBe(0);
  });

  it("products: defaults, order and totals (4.3, D10)", async () => {
    const res = await get(prefix, "/products");
    expect(res.status).toBe(200);
    const body = res.json<ProductPage>();
    expect(Object.keys(body)).toEqual(["ok", "items", "total", "page", "page_size", "includes_inactive"]);
    expect(body).toMatchObject({ ok: true, total: 6, page: 1, page_size: 50, includes_inactive: false });
    expect(body.items.map((p: { id: number }) => p.id)).toEqual(expectedActiveOrder());
  });

  it("products: include_inactive true/1 adds inactive ones, false/0 does not; paging slices (D10)", async () => {
    for (const v of ["true", "1"]) {
      const body = (await get(prefix, `/products?include_inactive=${v}`)).json<ProductPage>();
      expect(body.includes_inactive).toBe(true);
      expect(body.total).toBe(7);
      expect(body.items.find((p: { id: number }) => p.id === ids.inactiveA)?.is_active).toBe(false);
    }
    for (const v of ["false", "0"]) expect((await get(prefix, `/products?include_inactive=${v}`)).json<ProductPage>().total).toBe(6);
    const page2 = (await get(prefix, "/products?page=2&page_size=4")).json<ProductPage>();
    expect(page2).toMatchObject({ total: 6, page: 2, page_size: 4 });
    expect(page2.items.map((p: { id: number }) => p.id)).toEqual(expectedActiveOrder().slice(4, 8));
    const beyond = (await get(prefix, "/products?page=9&page_size=4")).json();
    expect(beyond).toMatchObject({ ok: true, items: [], total: 6, page: 9 });
  });

  if (profile === "P") {
    it("products: Profile P rejects malformed or out-of-range parameters, naming the parameter (D10, D17)", async () => {
      for (const [q, field] of [
        ["page_size=101", "page_size"],
        ["page_size=0", "page_size"],
        ["page_size=ten", "page_size"],
        ["page=0", "page"],
        ["page=-1", "page"],
        ["page=1.5", "page"],
        ["include_inactive=yes", "include_inactive"],
      ]) {
        const res = await get(prefix, `/products?${q}`);
        expect(res.status, q).toBe(400);
        expect(res.json()).toEqual({ ok: false, error_code: "bad_request", error_message: stringContaining(field) });
      }
      expect((await get(prefix, "/products?page_size=100")).json<ProductPage>().page_size).toBe(100);
    });
  } else {
    it("products: Profile U clamps page_size into 1..100 and uses defaults for malformed values (D10)", async () => {
      const cases: [string, Partial<Record<"page" | "page_size" | "includes_inactive", unknown>>][] = [
        ["page_size=101", { page_size: 100 }],
        ["page_size=0", { page_size: 1 }],
        ["page_size=ten", { page_size: 50 }],
        ["page=0", { page: 1 }],
        ["page=abc", { page: 1 }],
        ["include_inactive=yes", { includes_inactive: false }],
      ];
      for (const [q, expected] of cases) {
        const res = await get(prefix, `/products?${q}`);
        expect(res.status, q).toBe(200);
        expect(res.json(), q).toMatchObject(expected);
      }
    });
  }

  it("product fields: amounts as two-decimal strings (D3), stock (D13), SKUs (D12), images (D15), form schema only in P (2.3, 2.4)", async () => {
    const items = (await get(prefix, "/products?include_inactive=1")).json<ProductPage>().items;
    const byId = new Map(items.map((p) => [p.id, p]));
    const auto = byId.get(ids.autoB)!;
    expect(Object.keys(auto)).toEqual([
      "id",
      "slug",
      "title",
      "description",
      "content",
      "price_amount",
      "original_price",
      "fulfillment_type",
      ...(profile === "P" ? ["manual_form_schema"] : []),
      "is_active",
      "category_id",
      "delivery_format",
      "delivery_delimiter",
      "logo_url",
      "images",
      "has_sku",
      "skus",
      "updated_at", // issue 12.1 extension: new fields may appear, nothing changes meaning
    ]);
    expect(auto).toMatchObject({
      price_amount: "12.30",
      original_price: "14.30",
      fulfillment_type: "auto",
      is_active: true,
      category_id: categoryIds.b,
      delivery_format: "text",
      delivery_delimiter: "----",
      logo_url: "https://shop.example.com/uploads/logo.png",
      images: ["https://shop.example.com/uploads/1.png", "https://cdn.example.net/2.png"],
      content: IMAGE_CONTENT,
      has_sku: true,
    });
    expect(auto.skus).toEqual([
      {
        id: skuIds.autoB,
        sku_code: anyString(),
        spec_values: { name: "default" },
        price_amount: "12.30",
        stock_status: "available",
        stock_quantity: 3,
        is_active: true,
        updated_at: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    expect(byId.get(ids.emptyChild)!.skus[0]).toMatchObject({ stock_status: "out_of_stock", stock_quantity: 0 });
    expect(byId.get(ids.manualA)!.skus[0]).toMatchObject({ stock_status: "available", stock_quantity: 5 });
    expect(byId.get(ids.unlimitedA)!.skus[0]).toMatchObject({ stock_status: "unlimited", stock_quantity: -1 });
    expect(byId.get(ids.unlimitedA)!.fulfillment_type).toBe("upstream");

    const multi = byId.get(ids.multiSkuB)!;
    expect(multi.has_sku).toBe(true);
    expect(multi.skus.map((s) => [s.is_active, s.stock_status])).toEqual([
      [true, "out_of_stock"],
      [false, "available"],
    ]);
    expect(byId.get(ids.noSpecs)!.has_sku).toBe(false);
    expect(byId.get(ids.noSpecs)!.title).toEqual({ "zh-CN": "只有中文", en: "" });
    expect(byId.get(ids.noSpecs)!.description).toEqual({ "zh-CN": "", en: "" });
    expect(byId.get(ids.noSpecs)!.logo_url).toBe("");

    if (profile === "P") {
      // Profile P's products carry their form schema (2.4).
      expect(byId.get(ids.manualA)).toHaveProperty("manual_form_schema", FORM_SCHEMA);
      expect(auto).toHaveProperty("manual_form_schema", { fields: [] });
    } else {
      for (const p of items) expect(p).not.toHaveProperty("manual_form_schema");
    }
    expect(byId.has(ids.deletedB)).toBe(false);
    expect(byId.has(ids.inDeletedCategory)).toBe(false);
  });

  it("products: a page comes gzipped to a client that asks, from its first read; the same JSON (issue 13.4)", async () => {
    // A page size no other test (or prefix of this profile) reads: the page is built by this request.
    const query = `?include_inactive=1&page_size=${41 + ALL_PREFIXES.findIndex((p) => p.prefix === prefix)}`;
    const path = `${prefix}/products${query}`;
    const asking = (acceptEncoding: string) =>
      signedRawRequest(server.baseUrl, creds, { method: "GET", path, headers: { "Accept-Encoding": acceptEncoding } });
    // The thread pool compresses a page when it is built; its first request waits the millisecond for it.
    const zipped = await asking("gzip, deflate, br");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    const plain = await get(prefix, `/products${query}`);
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(zipped.headers["content-length"])).toBeLessThan(Buffer.byteLength(plain.text));
    expect(zipped.text).toBe(plain.text);
    for (const refusing of ["gzip;q=0", "br", "identity", "identity, gzip;q=0.5"]) {
      const res = await asking(refusing);
      expect(res.headers["content-encoding"], refusing).toBeUndefined();
      expect(res.text).toBe(plain.text);
    }
  });

  it("product detail equals the list item; inactive is 200 with is_active false (4.4, D11)", async () => {
    const items = (await get(prefix, "/products?include_inactive=1")).json<ProductPage>().items as Record<string, unknown>[];
    for (const name of ["autoB", "inactiveA", "manualA"]) {
      const res = await get(prefix, `/products/${ids[name]}`);
      expect(res.status).toBe(200);
      const body = res.json<object>();
      expect(Object.keys(body)[0]).toBe("ok");
      expect(body).toEqual({ ok: true, ...items.find((p) => p.id === ids[name]) });
    }
    expect((await get(prefix, `/products/${ids.inactiveA}`)).json<ProductDetail>().is_active).toBe(false);
  });

  it("product detail: unknown or deleted → 404 (P product_not_found, U product_unavailable); non-numeric id → 400 (D11)", async () => {
    const code = profile === "P" ? "product_not_found" : "product_unavailable";
    for (const id of [ids.deletedB, 99_999_999]) {
      const res = await get(prefix, `/products/${id}`);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ ok: false, error_code: code, error_message: anyString() });
    }
    for (const id of ["abc", "0", "-1", "1.5"]) {
      const res = await get(prefix, `/products/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.json<AnyAnswer>().error_code).toBe("bad_request");
    }
  });
});
