import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../scripts/cli-run.testutil";
import { validateCatalogFile } from "../catalog/validate-catalog-file";
import { SaveProductSchema } from "../catalog/save-product";
import { SaveSkuSchema } from "../catalog/save-sku";
import { db } from "../db/client";
import { createOrder } from "../orders/create-order";
import { makeBuyer, makeProduct } from "../testing/factories";
import { startStubUpstream, type StubAnswer, type StubUpstream } from "../testing/stub-upstream";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { clientFor, loadConnection } from "./connection";
import { importUpstreamCatalog } from "./import-upstream-catalog";
import { pingUpstreamConnection } from "./list-upstream-connections";
import { runPurchaseJob } from "./run-purchase";

// Issue 8.3: prices can never mint points, and a hostile upstream gets
// nothing: a stub supplier on loopback answers whatever the test wants
// (negative prices, malformed products, redirects, endless bodies, text of
// its choosing); the import goes through `npm run cli` as an operator runs it.

const EVIL = "EVIL-ECHO <b>call +1-555-0100</b>";
let url: string;
let stub: StubUpstream;
let connectionId: number;
let items: unknown[];
let route: (req: { method: string; path: string; body: string }) => StubAnswer | undefined;
const cli = (...args: string[]) => runCli(args, { DATABASE_URL: url });

const lang = (en: string) => ({ "zh-CN": en, en });
const product = (id: number, over: Record<string, unknown> = {}) => ({
  id, slug: `p${id}`, title: lang(`Product ${id}`), description: lang(""), content: lang(""), price_amount: "10.00", is_active: true,
  category_id: 1, delivery_format: "text", delivery_delimiter: "----", logo_url: "", images: [],
  skus: [{ id: id * 10, sku_code: `S${id}`, spec_values: {}, price_amount: "10.00", stock_quantity: -1, is_active: true }], ...over,
});

beforeAll(async () => {
  url = await useTestDatabase();
  stub = await startStubUpstream();
  stub.answer = (req) => {
    const special = route(req);
    if (special) return special;
    if (req.path.startsWith("/ping")) return { body: { ok: true, balance: "100.00" } };
    if (req.path.startsWith("/categories")) return { body: { ok: true, categories: [{ id: 1, parent_id: 0, slug: "games", name: lang("Games"), sort_order: 0 }] } };
    if (req.path.startsWith("/products")) return { body: { ok: true, items, total: items.length, page: 1, page_size: 100 } };
    return { status: 404, body: { ok: false, error_code: "not_found", error_message: EVIL } };
  };
  route = () => undefined;
  connectionId = (await addUpstreamConnection({ name: "stub", baseUrl: stub.origin, profile: "P", apiKey: "k", apiSecret: "s", maxWaitSeconds: 60 })).id;
}, 60_000);
afterAll(async () => {
  await stub?.close();
});
beforeEach(() => {
  route = () => undefined;
});

const local = (upstreamProductId: number) =>
  db().product.findFirst({ where: { upstreamConnectionId: connectionId, upstreamProductId }, include: { skus: true } });

describe("issue 8.3: prices can never mint points", () => {
  it("issue 8.3: an upstream product priced below zero or malformed is skipped with a reason per product, and the rest of the import goes on", async () => {
    items = [
      product(1),
      product(2, { price_amount: "-100.00", title: lang(EVIL) }),
      product(3, { skus: [{ id: 30, sku_code: "S3", spec_values: {}, price_amount: "-0.01", stock_quantity: 5, is_active: true }] }),
      product(4, { title: undefined, price_amount: EVIL }),
      product(5, { category_id: 99 }),
      product(6, { original_price: "-1.00" }),
      "junk",
    ];
    const r = await cli("upstream:import", "--connection", String(connectionId));
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ products_created: 1, skus_created: 1 });
    expect(r.json.skipped).toEqual([
      { upstream_product_id: 2, reason: "price_amount: priced below zero" },
      { upstream_product_id: 3, reason: "skus[0].price_amount: priced below zero" },
      { upstream_product_id: 4, reason: "title: missing or of the wrong type" },
      { upstream_product_id: 6, reason: "original_price: priced below zero" },
      { upstream_product_id: null, reason: "missing or of the wrong type" },
      { upstream_product_id: 5, reason: "category_id: not a category the upstream lists" },
    ]);
    expect(r.stdout + r.stderr).not.toContain("EVIL");
    expect(await local(1)).toMatchObject({ priceCents: 1000n, isActive: true });
    for (const id of [2, 3, 4, 5, 6]) expect(await local(id)).toBeNull();
  }, 120_000);

  it("issue 8.3: a re-import that prices a product below zero takes it off sale at its last price; an order cannot credit the buyer", async () => {
    items = [product(1, { price_amount: "-100.00", skus: [{ id: 10, sku_code: "S1", spec_values: {}, price_amount: "-100.00", stock_quantity: -1, is_active: true }] })];
    const r = await importUpstreamCatalog({ connectionId });
    expect(r).toMatchObject({ productsDelisted: 1, skipped: [{ upstreamProductId: 1, reason: "price_amount: priced below zero" }] });
    const p = (await local(1))!;
    expect(p).toMatchObject({ isActive: false, priceCents: 1000n, skus: [expect.objectContaining({ priceCents: 1000n })] });
    const buyer = await makeBuyer({ pointsCents: 500n });
    const err = await createOrder({ credential: { id: buyer.id, userId: buyer.user.id }, profile: "P", input: { downstreamOrderNo: "NEG-1", skuId: p.skus[0].id, quantity: 1 } }).catch((e) => e);
    expect(err).toMatchObject({ code: "sku_unavailable" });
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(500n);
  }, 60_000);

  it("issue 8.3: the database refuses negative product, SKU and cost prices and negative order amounts (CHECK)", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const { product: p, sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: null, priceCents: 100n });
      const buyer = await makeBuyer({ pointsCents: 10_000n });
      const { order } = await createOrder({ credential: { id: buyer.id, userId: buyer.user.id }, profile: "P", input: { downstreamOrderNo: "CHK-1", skuId: sku.id, quantity: 1 } });
      const refused = async (sql: string, params: unknown[]) => (await pool.query(sql, params).catch((e: { code?: string }) => e)) as { code?: string };
      for (const [sql, id] of [
        [`UPDATE "Product" SET "priceCents" = -100 WHERE "id" = $1`, p.id],
        [`UPDATE "Product" SET "originalPriceCents" = -1 WHERE "id" = $1`, p.id],
        [`UPDATE "Sku" SET "priceCents" = -100 WHERE "id" = $1`, sku.id],
        [`UPDATE "Order" SET "amountCents" = -100 WHERE "id" = $1`, order.id],
        [`UPDATE "OrderItem" SET "unitPriceCents" = -100 WHERE "orderId" = $1`, order.id],
        [`UPDATE "OrderItem" SET "totalPriceCents" = -100 WHERE "orderId" = $1`, order.id],
        [`UPDATE "OrderItem" SET "quantity" = -1 WHERE "orderId" = $1`, order.id],
      ] as const) {
        expect((await refused(sql, [id])).code, sql).toBe("23514");
      }
      // place_order itself, called with a negative price (as an import that slipped through would).
      const direct = await refused(
        `SELECT * FROM place_order('SKNEG0000000000001', $1, $2::uuid, 'P', 'CHK-2', 'd', 'r', NULL, NULL, '{}'::jsonb, $3, $4, '{}'::jsonb, 1, -100, false, 'text')`,
        [buyer.id, buyer.user.id, sku.id, p.id],
      );
      expect(direct.code).toBe("23514");
      expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(9_900n);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it("issue 8.3: the catalogue file (CLI catalog:import) and the console refuse a negative price", async () => {
    const file = {
      categories: [{ slug: "neg-cat", name: lang("Neg"), sort_order: 0, parent: null }],
      products: [{ slug: "neg-p", category: "neg-cat", title: lang("Neg"), fulfillment_type: "manual", price_amount: "-1.00", skus: [{ sku_code: "NEG-1", stock_quantity: 1 }] }],
    };
    expect(() => validateCatalogFile(file)).toThrow(/products\[0\]\.price_amount/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "neg-catalog-"));
    fs.writeFileSync(path.join(dir, "c.json"), JSON.stringify(file));
    const r = await cli("catalog:import", path.join(dir, "c.json"));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/price_amount/);
    expect(await db().product.count({ where: { slug: "neg-p" } })).toBe(0);
    expect(SaveProductSchema.shape.price.safeParse("-1.00").success).toBe(false);
    expect(SaveProductSchema.shape.originalPrice.safeParse("-1.00").success).toBe(false);
    expect(SaveSkuSchema.shape.price.safeParse("-0.01").success).toBe(false);
  }, 120_000);
});

describe("issue 8.3: a hostile upstream gets nothing", () => {
  it("issue 8.3: an answer larger than 10 MiB is aborted while it streams, and nothing is imported", async () => {
    route = (req) => (req.path.startsWith("/products") ? { stream: { totalBytes: 64 * 1024 * 1024 } } : undefined);
    const before = stub.requests.length;
    await expect(importUpstreamCatalog({ connectionId })).rejects.toThrow(/answer larger than 10485760 bytes; not read/);
    const index = stub.requests.findIndex((r, i) => i >= before && r.includes("/products"));
    // Read up to the cap, then the transfer is cut: far from the 64 MiB offered.
    await new Promise((r) => setTimeout(r, 200));
    expect(stub.streamed.get(index)).toBeLessThan(32 * 1024 * 1024);

    route = (req) => (req.path.startsWith("/categories") ? { headers: { "Content-Length": String(11 * 1024 * 1024) }, body: "" } : undefined);
    await expect(importUpstreamCatalog({ connectionId })).rejects.toThrow(/larger than 10485760 bytes/);
  }, 60_000);

  it("issue 8.3: a redirect is not followed", async () => {
    const elsewhere = await startStubUpstream();
    try {
      route = (req) => (req.path.startsWith("/categories") ? { status: 302, headers: { Location: `${elsewhere.origin}/api/v1/provider/categories` } } : undefined);
      await expect(importUpstreamCatalog({ connectionId })).rejects.toThrow(/HTTP 302: the upstream redirected; redirects are not followed/);
      route = (req) => (req.path.startsWith("/ping") ? { status: 307, headers: { Location: `${elsewhere.origin}/api/v1/provider/ping` } } : undefined);
      expect((await pingUpstreamConnection(connectionId)).ok).toBe(false);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  }, 60_000);

  it("issue 8.3: an upstream's error text reaches neither the console (ping, import, add) nor the buyer (failure reason) nor the purchase record", async () => {
    route = (req) => (req.path.startsWith("/ping") ? { status: 401, body: { ok: false, error_code: "unauthorized", error_message: EVIL } } : undefined);
    expect(await pingUpstreamConnection(connectionId)).toEqual({ ok: false, balance: null, error: "HTTP 401 unauthorized" });
    const add = await addUpstreamConnection({ name: "x", baseUrl: stub.origin, profile: "P", apiKey: "k", apiSecret: "s", maxWaitSeconds: 60 }).catch((e: Error) => e.message);
    expect(add).toMatch(/HTTP 401 unauthorized\)/);
    expect(add).not.toContain("EVIL");

    route = (req) => (req.path.startsWith("/categories") ? { status: 418, body: { ok: false, error_code: EVIL, error_message: EVIL } } : undefined);
    const imp = await cli("upstream:import", "--connection", String(connectionId));
    expect(imp.code).toBe(1);
    expect(imp.stderr).toMatch(/could not read the upstream catalogue \(HTTP 418\)/);
    expect(imp.stderr).not.toContain("EVIL");

    // A purchase: a refusal with the upstream's text, then a failed upstream order with its text.
    route = () => undefined;
    items = [product(7)];
    await importUpstreamCatalog({ connectionId });
    const sku = (await local(7))!.skus[0];
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const buy = async (no: string) => {
      const { order } = await createOrder({ credential: { id: buyer.id, userId: buyer.user.id }, profile: "P", input: { downstreamOrderNo: no, skuId: sku.id, quantity: 1 } });
      const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } });
      await runPurchaseJob({ purchaseId: purchase.id });
      return db().order.findUniqueOrThrow({ where: { id: order.id }, include: { upstreamPurchase: true } });
    };
    route = (req) => (req.method === "POST" ? { status: 400, body: { ok: false, error_code: "sku_unavailable", error_message: EVIL } } : undefined);
    const refused = await buy("HOSTILE-1");
    expect(refused).toMatchObject({ status: "failed", errorMessage: "the upstream supplier refused the order (sku_unavailable)" });
    expect(refused.upstreamPurchase?.lastError).toBe("HTTP 400 sku_unavailable");

    route = (req) => {
      if (req.method !== "POST") return undefined;
      const no = (JSON.parse(req.body) as { downstream_order_no: string }).downstream_order_no;
      return { body: { ok: true, order_id: 77, order_no: "UP77", downstream_order_no: no, status: "failed", amount: "-5.00", error_message: EVIL } };
    };
    const failed = await buy("HOSTILE-2");
    expect(failed).toMatchObject({ status: "failed", errorMessage: "the upstream supplier failed the order" });
    expect(failed.upstreamPurchase).toMatchObject({ status: "failed", costCents: null }); // a negative cost is not kept
    expect(JSON.stringify(failed, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain("EVIL");
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(10_000n); // both refunded (D22)

    const client = clientFor(await loadConnection(connectionId));
    route = () => ({ status: 500, body: { ok: false, error_code: "internal_error", error_message: EVIL } });
    const e = await client.getOrder(77).catch((x: Error) => x.message);
    expect(e).toBe("HTTP 500 internal_error");
  }, 120_000);
});
