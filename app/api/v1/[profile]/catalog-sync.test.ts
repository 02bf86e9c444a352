import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/audit/actor";
import { createAdmin } from "@/lib/admins/create-admin";
import { confirmCardKeys } from "@/lib/catalog/confirm-card-keys";
import { undoCardKeyBatch } from "@/lib/catalog/undo-card-key-batch";
import { db } from "@/lib/db/client";
import { signedRawRequest, type Creds } from "@/lib/testing/test-client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "@/lib/testing/factories";
import { useTestDatabase } from "@/lib/testing/test-database";
import type { ProductDetail, ProductPage } from "@/lib/testing/wire-types";

// Issue 12.1 (incremental sync) and 13.2 (the incremental snapshot), over real
// HTTP: each kind of change moves `updated_at` of exactly the products it
// touches and shows up in `updated_after`; paging with the sync token misses
// nothing while products change; stock is served within the freshness bound.

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let creds: Creds;
const admin = { actor: { kind: "admin", id: 0, ip: null } as Actor };
const p: Record<string, { id: number; skuId: number }> = {};
let categoryId: number;
// The snapshot refreshes every 300 ms while it is read; D13 allows a second.
const settle = () => new Promise((r) => setTimeout(r, 1000));
type Item = {
  id: number;
  updated_at: string;
  is_active: boolean;
  price_amount: string;
  skus: { stock_quantity: number; price_amount: string; updated_at: string }[];
};
type SyncPage = { items: Item[]; total: number; sync_token: string };

const get = (path: string, prefix = "/api/v1/upstream") => signedRawRequest(server.baseUrl, creds, { method: "GET", path: prefix + path });
const sync = async (after: string, extra = "", prefix?: string) => {
  const res = await get(`/products?updated_after=${encodeURIComponent(after)}&page_size=100${extra}`, prefix);
  expect(res.status).toBe(200);
  return res.json<SyncPage>();
};
/** The ids an `updated_after` answer lists, and the token to continue from. */
const changedSince = async (token: string) => {
  const page = await sync(token, "&include_inactive=true");
  return { ids: page.items.map((i) => i.id).sort((a, b) => a - b), token: page.sync_token, items: page.items };
};
const order = (skuId: number, no: string) =>
  signedRawRequest(server.baseUrl, creds, {
    method: "POST",
    path: "/api/v1/upstream/orders",
    body: JSON.stringify({ sku_id: skuId, quantity: 1, downstream_order_no: no }),
  });

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 1_000_000n });
  creds = { apiKey: buyer.apiKey, apiSecret: buyer.apiSecret };
  admin.actor.id = (await createAdmin({ email: "sync-test@example.test", password: "sync-test-password-1" }, { actor: SYSTEM_ACTOR })).id;
  categoryId = (await makeCategory()).id;
  for (const name of ["sold", "imported", "edited", "quiet", "manual"]) {
    const made = await makeProduct({
      categoryId,
      ...(name === "manual" ? { fulfillmentType: "manual", stockQuantity: 5 } : { cardKeys: cardKeysFor(name, 20) }),
    });
    p[name] = { id: made.product.id, skuId: made.sku.id };
  }
  server = await startAppServer(url);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe("incremental sync (issue 12.1)", () => {
  it("updated_after=0 lists everything by (updated_at, id) with updated_at on products and SKUs and a sync token", async () => {
    const page = await sync("0");
    expect(page.items.length).toBe(5);
    const times = page.items.map((i) => i.updated_at);
    expect([...times].sort()).toEqual(times);
    for (const i of page.items) {
      expect(i.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(i.skus[0].updated_at).toMatch(/Z$/);
    }
    expect(page.sync_token).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    // A plain listing is unchanged: no sync token (nothing changes meaning for a downstream that knows only the spec).
    expect((await get("/products")).json<ProductPage>().sync_token).toBeUndefined();
  });

  it("a sale, a key import, an admin edit and a batch undo each move exactly their product; reads and no-op saves move nothing", async () => {
    let { token } = await changedSince("0");
    const step = async (change: () => Promise<unknown>, expected: number[]) => {
      await change();
      await settle();
      const next = await changedSince(token);
      expect(next.ids).toEqual(expected.sort((a, b) => a - b));
      token = next.token;
      return next.items;
    };
    const [sold] = await step(() => order(p.sold.skuId, `SYNC-${Date.now()}`), [p.sold.id]);
    expect(sold.skus[0].stock_quantity).toBe(19);
    let batchId = 0;
    const [imported] = await step(async () => {
      ({ batchId } = await confirmCardKeys(
        { skuId: p.imported.skuId, text: cardKeysFor("more", 3).join("\n"), kind: "txt", source: "admin-paste", expectFresh: 3 },
        admin,
      ));
    }, [p.imported.id]);
    expect(imported.skus[0].stock_quantity).toBe(23);
    const [edited] = await step(() => db().sku.update({ where: { id: p.edited.skuId }, data: { priceCents: 777n } }), [p.edited.id]);
    expect(edited.skus[0].price_amount).toBe("7.77");
    await step(() => undoCardKeyBatch(batchId, admin), [p.imported.id]);
    await step(() => order(p.manual.skuId, `SYNC-M-${Date.now()}`), [p.manual.id]);
    // Nothing: reads, a save that changes no field, an order refused for stock.
    await step(async () => {
      await get(`/products/${p.quiet.id}`);
      await db().product.update({ where: { id: p.quiet.id }, data: { isActive: true } });
      await db().sku.update({ where: { id: p.manual.skuId }, data: { stockQuantity: 0 } });
      await settle();
      token = (await changedSince(token)).token;
      await order(p.manual.skuId, `SYNC-X-${Date.now()}`);
    }, []);
  });

  it("an image-exposure switch moves every product; delisting shows only with include_inactive, as is_active false", async () => {
    const { token } = await changedSince("0");
    await db().siteSettings.update({ where: { id: 1 }, data: { imageExposure: false } });
    await settle();
    const after = await changedSince(token);
    expect(after.ids).toEqual(
      Object.values(p)
        .map((x) => x.id)
        .sort((a, b) => a - b),
    );
    await db().siteSettings.update({ where: { id: 1 }, data: { imageExposure: true } });

    await settle();
    const t2 = (await changedSince("0")).token;
    await db().product.update({ where: { id: p.quiet.id }, data: { deletedAt: new Date() } });
    await settle();
    expect((await sync(t2)).items.map((i) => i.id)).not.toContain(p.quiet.id);
    const delisted = (await sync(t2, "&include_inactive=1")).items.find((i) => i.id === p.quiet.id)!;
    expect(delisted.is_active).toBe(false);
    expect((await get(`/products/${p.quiet.id}`)).status).toBe(404); // D11 holds
    await db().product.update({ where: { id: p.quiet.id }, data: { deletedAt: null } });
  });

  it("paging with the sync token misses no change made while paging", async () => {
    const many: number[] = [];
    for (let i = 0; i < 24; i++) many.push((await makeProduct({ categoryId, fulfillmentType: "manual", stockQuantity: 100 })).product.id);
    await settle();
    const seen = new Map<number, string>();
    let token = "0";
    for (let round = 0; round < 60; round++) {
      const page = await sync(token, "&include_inactive=true&page_size=5"); // the later page_size wins
      for (const i of page.items) seen.set(i.id, i.updated_at);
      token = page.sync_token;
      if (round < 8) {
        // Edit products already seen and not yet seen, while paging.
        for (const id of [many[round], many[23 - round]])
          await db().product.update({ where: { id }, data: { priceCents: BigInt(100 + round) } });
        await settle();
      } else if (page.items.length === 0) break;
    }
    for (const id of many) {
      const now = (await get(`/products/${id}`)).json<Item>();
      expect(seen.get(id), `product ${id}`).toBe(now.updated_at);
    }
  });

  it("Profile P refuses a malformed updated_after (400 bad_request, D10 style); Profile U ignores it", async () => {
    for (const bad of ["yesterday", "2026-02-31T00:00:00Z", "-5"]) {
      const res = await get(`/products?updated_after=${bad}`, "/api/v1/provider");
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, error_code: "bad_request" });
      const u = (await get(`/products?updated_after=${bad}`)).json<ProductPage>();
      expect(u.ok).toBe(true);
      expect(u.sync_token).toBeUndefined();
    }
    expect((await sync("1700000000", "", "/v1/provider")).items.length).toBeGreaterThan(0);
  });

  it("a level price reaches that level's catalogue only, and moves updated_at (issue 12.4, 13.2)", async () => {
    const { token } = await changedSince("0");
    const user = await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } });
    await db().skuLevelPrice.create({ data: { skuId: p.edited.skuId, levelId: user.memberLevelId, priceCents: 555n } });
    await settle();
    const changed = await changedSince(token);
    expect(changed.ids).toEqual([p.edited.id]);
    expect(changed.items[0].skus[0].price_amount).toBe("5.55");
    expect(changed.items[0].price_amount).toBe("5.55");
    // Another member level keeps the SKU's price.
    const level = await db().memberLevel.create({ data: { slug: `other-${Date.now()}`, name: { en: "Other", "zh-CN": "其他" } } });
    const other = await makeBuyer();
    await db().user.update({ where: { id: other.user.id }, data: { memberLevelId: level.id } });
    await new Promise((r) => setTimeout(r, 1100)); // the key's level is cached for a second
    const theirs = await signedRawRequest(
      server.baseUrl,
      { apiKey: other.apiKey, apiSecret: other.apiSecret },
      { method: "GET", path: `/api/v1/upstream/products/${p.edited.id}` },
    );
    expect(theirs.json<ProductDetail>().skus[0].price_amount).toBe("7.77");
  });
});

describe("freshness under orders (issue 13.1)", () => {
  it("a cached list page shows a changed product and a new product after a refresh (pages are dropped one by one)", async () => {
    const page = async () => (await get("/products?page=1&page_size=100&include_inactive=1")).json<{ items: Item[]; total: number }>();
    const before = await page();
    await page(); // served from the page cache now
    await db().sku.update({ where: { id: p.quiet.skuId }, data: { priceCents: 4321n } });
    await settle();
    const edited = await page();
    expect(edited.items.find((i) => i.id === p.quiet.id)!.skus[0].price_amount).toBe("43.21");
    const added = await makeProduct({ categoryId });
    await settle();
    const after = await page();
    expect(after.total).toBe(before.total + 1);
    expect(after.items.map((i) => i.id)).toContain(added.product.id);
  });

  it("each sale shows in the stock figure within one second while the catalogue is read", async () => {
    const skuId = p.sold.skuId;
    // Profile U has no replay rule (D8 is P's), so the poll may repeat its timestamp.
    const poll = () =>
      signedRawRequest(server.baseUrl, creds, {
        method: "GET",
        path: `/api/v1/upstream/products/${p.sold.id}`,
        timestamp: Math.floor(Date.now() / 1000),
      });
    const stock = async () => (await poll()).json<Item>().skus[0].stock_quantity;
    let expected = await stock();
    let worst = 0;
    for (let i = 0; i < 8; i++) {
      const res = await order(skuId, `FRESH-${Date.now()}-${i}`);
      expect(res.status).toBe(200);
      const answered = Date.now();
      expected -= 1;
      while ((await stock()) !== expected) {
        expect(Date.now() - answered, "stock figure older than the bound").toBeLessThan(1000);
        await new Promise((r) => setTimeout(r, 20));
      }
      worst = Math.max(worst, Date.now() - answered);
    }
    expect(worst).toBeLessThan(1000);
  });
});
