import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { makeCategory } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import type { UpstreamStock } from "./source-stock-page";
import { storeUpstreamStock } from "./store-upstream-stock";

// Issue 26.1, decision 0049: an import hands storeUpstreamStock the whole
// catalogue, so finding the gone SKUs must stay set-based. Measured on real
// PostgreSQL with an upstream catalogue of PRODUCTS products of two SKUs each,
// all imported, and SOURCES sources of ours pointing at them (none has seen a
// listing yet: each finds its product through our imported copy). Prints the
// time of the first store (everything to write) and of a repeat (nothing).

const PRODUCTS = 10_000;
const SOURCES = 3_000;
let connectionId: number;

beforeAll(async () => {
  await useTestDatabase();
  const category = await makeCategory();
  connectionId = (
    await db().upstreamConnection.create({
      data: { name: "scale", baseUrl: "http://127.0.0.1:9", profile: "U", apiKey: "k", secretCiphertext: Buffer.alloc(1) },
    })
  ).id;
  // Upstream product g has SKUs 2g-1 and 2g, each with stock 5 at the last import.
  await db().$executeRaw`
    INSERT INTO "Product" ("slug", "categoryId", "title", "description", "content", "fulfillmentType", "priceCents",
                           "originalPriceCents", "upstreamConnectionId", "upstreamProductId", "updatedAt")
    SELECT 'scale-' || g, ${category.id}, '{"zh-CN":"p","en":"p"}', '{"zh-CN":"","en":""}', '{"zh-CN":"","en":""}', 'upstream',
           500, 500, ${connectionId}, g, now()
    FROM generate_series(1, ${PRODUCTS}) g`;
  await db().$executeRaw`
    INSERT INTO "Sku" ("productId", "skuCode", "priceCents", "stockQuantity", "upstreamSkuId", "updatedAt")
    SELECT p."id", 'scale-' || u, 500, 5, u, now()
    FROM "Product" p CROSS JOIN LATERAL (VALUES (2 * p."upstreamProductId" - 1), (2 * p."upstreamProductId")) AS v(u)
    WHERE p."upstreamConnectionId" = ${connectionId}`;
  // Sources on the SKUs of the first SOURCES/2 products, and on every SKU of the last 500 products.
  await db().$executeRaw`
    INSERT INTO "SkuSource" ("skuId", "position", "kind", "connectionId", "upstreamSkuId", "updatedAt")
    SELECT s."id", 1, 'upstream', ${connectionId}, s."upstreamSkuId", now()
    FROM "Sku" s WHERE s."upstreamSkuId" <= ${SOURCES - 1000} OR s."upstreamSkuId" > ${2 * PRODUCTS - 1000}`;
}, 120_000);

/** The catalogue read again: products 1-500 without their second SKU, the last 500 products gone, the rest at stock 7. */
function catalogue(): UpstreamStock {
  const s: UpstreamStock = { skuIds: [], stocks: [], skuProducts: [], stamps: [], productIds: [], productStamps: [] };
  const stamp = "1970-01-01T00:00:00.000Z";
  for (let g = 1; g <= PRODUCTS; g++) {
    s.productIds.push(g);
    s.productStamps.push(stamp);
    if (g > PRODUCTS - 500) continue;
    for (const u of g <= 500 ? [2 * g - 1] : [2 * g - 1, 2 * g]) {
      s.skuIds.push(u);
      s.stocks.push(7);
      s.skuProducts.push(g);
      s.stamps.push(stamp);
    }
  }
  return s;
}

describe("issue 26.1: the gone SKUs of a whole catalogue", () => {
  it("issue 26.1: one import's store of 10,000 products finds every gone SKU set-based, and a repeat writes nothing", async () => {
    const feed = catalogue();
    const store = async () => {
      const t0 = performance.now();
      const written = await db().$transaction((tx) => storeUpstreamStock(tx, connectionId, feed, { ordered: false, copies: "gone" }), {
        timeout: 120_000,
      });
      return { written, ms: Math.round(performance.now() - t0) };
    };
    const first = await store();
    const again = await store();
    expect(first.written).toBe(SOURCES);
    expect(again.written).toBe(0);
    const [row] = await db().$queryRaw<{ zero: number; seven: number; copiesZero: number }[]>`
      SELECT (SELECT count(*)::int FROM "SkuSource" WHERE "lastStock" = 0) AS zero,
             (SELECT count(*)::int FROM "SkuSource" WHERE "lastStock" = 7) AS seven,
             (SELECT count(*)::int FROM "Sku" WHERE "stockQuantity" = 0) AS "copiesZero"`;
    expect(row).toEqual({ zero: 500 + 1000, seven: SOURCES - 1500, copiesZero: 500 + 1000 });
    console.log(
      JSON.stringify({ issue26_source_gone_store_ms: { products: PRODUCTS, sources: SOURCES, first: first.ms, repeat: again.ms } }),
    );
  }, 120_000);
});
