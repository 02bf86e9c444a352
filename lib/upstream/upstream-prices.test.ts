import { SYSTEM_ACTOR } from "../audit/actor";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli";
import { SaveProductSchema } from "../catalog/save-product";
import { SaveSkuSchema } from "../catalog/save-sku";
import { validateCatalogFile } from "../catalog/validate-catalog-file";
import { db } from "../db/client";
import { createOrder } from "../orders/create-order";
import { makeBuyer, makeProduct } from "../testing/factories";
import { lang, startStubSupplier, upstreamProduct, type StubSupplier } from "../testing/stub-supplier";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { importUpstreamCatalog } from "./import-upstream-catalog";

// Issue 8.3: prices can never mint points. A stub supplier on loopback
// serves negative prices and malformed products; the import goes through
// `npm run cli` as an operator runs it; the database refuses what slips by.

const EVIL = "EVIL-ECHO <b>call +1-555-0100</b>";
let url: string;
let sup: StubSupplier;
let connectionId: number;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

beforeAll(async () => {
  url = await useTestDatabase();
  sup = await startStubSupplier(EVIL);
  connectionId = (
    await addUpstreamConnection(
      { name: "stub", baseUrl: sup.stub.origin, profile: "P", apiKey: "k", apiSecret: "s", maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
}, 60_000);
afterAll(async () => {
  await sup?.stub.close();
});
beforeEach(() => {
  sup.route = () => undefined;
});

const local = (upstreamProductId: number) =>
  db().product.findFirst({ where: { upstreamConnectionId: connectionId, upstreamProductId }, include: { skus: true } });

describe("issue 8.3: prices can never mint points", () => {
  it("issue 8.3: an upstream product priced below zero, malformed or clashing is skipped with a reason per product, and the rest of the import goes on", async () => {
    sup.items = [
      upstreamProduct(1),
      upstreamProduct(2, { price_amount: "-100.00", title: lang(EVIL) }),
      upstreamProduct(3, {
        skus: [{ id: 30, sku_code: "S3", spec_values: {}, price_amount: "-0.01", stock_quantity: 5, is_active: true }],
      }),
      upstreamProduct(4, { title: undefined, price_amount: EVIL }),
      upstreamProduct(5, { category_id: 99 }),
      upstreamProduct(6, { original_price: "-1.00" }),
      "junk",
      upstreamProduct(1, { slug: "again" }),
      upstreamProduct(9, { slug: "p1" }),
      upstreamProduct(10, {
        skus: [{ id: 10, sku_code: "S10", spec_values: {}, price_amount: "1.00", stock_quantity: 1, is_active: true }],
      }),
    ];
    const r = await cli<{ skipped: unknown[] }>("upstream:import", "--connection", String(connectionId));
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ products_created: 1, skus_created: 1 });
    expect(r.json.skipped).toEqual([
      { upstream_product_id: 2, reason: "price_amount: priced below zero" },
      { upstream_product_id: 3, reason: "skus[0].price_amount: priced below zero" },
      { upstream_product_id: 4, reason: "title: missing or of the wrong type" },
      { upstream_product_id: 6, reason: "original_price: priced below zero" },
      { upstream_product_id: null, reason: "missing or of the wrong type" },
      { upstream_product_id: 1, reason: "id: listed more than once" },
      { upstream_product_id: 9, reason: "slug: used by another product" },
      { upstream_product_id: 10, reason: "skus: a SKU id is used more than once" },
      { upstream_product_id: 5, reason: "category_id: not a category the upstream lists" },
    ]);
    expect(r.stdout + r.stderr).not.toContain("EVIL");
    expect(await local(1)).toMatchObject({ priceCents: 1000n, isActive: true });
    for (const id of [2, 3, 4, 5, 6, 9, 10]) expect(await local(id)).toBeNull();
  }, 120_000);

  it("issue 8.3: a re-import that prices a product below zero takes it off sale at its last price; an order cannot credit the buyer", async () => {
    sup.items = [
      upstreamProduct(1, {
        price_amount: "-100.00",
        skus: [{ id: 10, sku_code: "S1", spec_values: {}, price_amount: "-100.00", stock_quantity: -1, is_active: true }],
      }),
    ];
    const r = await importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR });
    expect(r).toMatchObject({ productsDelisted: 1, skipped: [{ upstreamProductId: 1, reason: "price_amount: priced below zero" }] });
    const p = (await local(1))!;
    expect(p).toMatchObject({ isActive: false, priceCents: 1000n, skus: [expect.objectContaining({ priceCents: 1000n })] });
    const buyer = await makeBuyer({ pointsCents: 500n });
    const err = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "P",
      input: { downstreamOrderNo: "NEG-1", skuId: p.skus[0].id, quantity: 1 },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "sku_unavailable" });
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(500n);
  }, 60_000);

  it("issue 8.3: the database refuses negative product, SKU and cost prices and negative order amounts (CHECK)", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const { product: p, sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: null, priceCents: 100n });
      const buyer = await makeBuyer({ pointsCents: 10_000n });
      const { order } = await createOrder({
        credential: { id: buyer.id, userId: buyer.user.id },
        profile: "P",
        input: { downstreamOrderNo: "CHK-1", skuId: sku.id, quantity: 1 },
      });
      const refused = async (sql: string, params: unknown[]) =>
        (await pool.query(sql, params).catch((e: { code?: string }) => e)) as { code?: string };
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
      // A member-level price (issue 12.4) is checked the same way; place_order reads its price
      // from these rows inside the order's statement, so it cannot be handed a negative one.
      const level = await refused(
        `INSERT INTO "SkuLevelPrice" ("skuId", "levelId", "priceCents", "updatedAt") SELECT $1, "id", -100, now() FROM "MemberLevel" LIMIT 1`,
        [sku.id],
      );
      expect(level.code).toBe("23514");
      expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(9_900n);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it("issue 8.3: the catalogue file (CLI catalog:import) and the console refuse a negative price", async () => {
    const file = {
      categories: [{ slug: "neg-cat", name: lang("Neg"), sort_order: 0, parent: null }],
      products: [
        {
          slug: "neg-p",
          category: "neg-cat",
          title: lang("Neg"),
          fulfillment_type: "manual",
          price_amount: "-1.00",
          skus: [{ sku_code: "NEG-1", stock_quantity: 1 }],
        },
      ],
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
