import { SYSTEM_ACTOR } from "../audit/actor";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogPool, db } from "../db/client";
import { cardKeysFor, makeCategory, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { importCatalog } from "./import-catalog";
import { loadCatalog } from "./load-catalog";
import { stampCatalog } from "./stamp-catalog";
import { validateCatalogFile } from "./validate-catalog-file";

// Issue 33.9 (decision 0065): what an import wrote is listed within a second
// or two of its return. The import stamps its own changes before it returns,
// so a server's next refresh only loads them; and no stamp counts the card
// keys of a SKU created since migration *_sku_stamp_at_creation (it takes
// the journal's deltas): rows read, not time, are asserted.

beforeAll(async () => {
  await useTestDatabase();
}, 60_000);

const lang = (s: string) => ({ "zh-CN": s, en: s });
const journalRows = async () => Number((await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "CatalogChange"`)[0].n);

describe("a catalogue import and the snapshot's refresh (issue 33.9)", () => {
  it("issue 33.9: an import returns with everything it wrote stamped, so the refresh after it only loads those products", async () => {
    const category = await makeCategory();
    const clockBefore = (await stampCatalog())!;
    const slugs = Array.from({ length: 12 }, (_, i) => `stamped-${category.id}-${i}`);
    await importCatalog(
      validateCatalogFile({
        categories: [],
        products: slugs.map((slug, i) => ({
          slug,
          category: category.slug,
          title: lang(slug),
          description: lang(""),
          content: lang("c"),
          fulfillment_type: "auto",
          delivery_format: "text",
          price_amount: "1.00",
          original_price: "2.00",
          skus: [0, 1].map((s) => ({
            sku_code: `${slug}-${s}`,
            spec_values: {},
            price_amount: "1.00",
            card_keys: cardKeysFor(`k${i}${s}`, 3),
          })),
        })),
      }),
      { actor: SYSTEM_ACTOR },
    );

    // Nothing is left for a refresh to stamp: its stamp moves nothing …
    expect(await journalRows()).toBe(0);
    const clock = (await stampCatalog())!;
    // … and its load since the old clock is exactly the import, with its stock.
    const load = await loadCatalog(clockBefore);
    expect(load.clock).toBe(clock);
    expect(load.products.map((p) => p.slug).sort()).toEqual([...slugs].sort());
    expect(load.products.flatMap((p) => p.skus.map((s) => s.stock))).toEqual(Array(24).fill(3));
    expect(await stampCatalog()).toBe(clock);
  });

  it("issue 33.9: the stamp after new SKUs with card keys reads no card key (their counts come from the journal)", async () => {
    const a = await makeProduct({ cardKeys: cardKeysFor("fresh-a", 4) });
    const b = await makeProduct({ cardKeys: cardKeysFor("fresh-b", 2) });
    const client = await catalogPool().connect();
    let reads: { seq_scan: string; idx_scan: string; idx_tup_fetch: string };
    try {
      // This transaction's own table statistics: what the stamp itself read of "CardKey".
      const results = (await client.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ;
         SELECT stamp_catalog('{}'::int[], false);
         SELECT seq_scan, coalesce(idx_scan, 0) AS idx_scan, coalesce(idx_tup_fetch, 0) AS idx_tup_fetch
           FROM pg_stat_xact_user_tables WHERE relname = 'CardKey';
         COMMIT`,
      )) as unknown as { rows: (typeof reads)[] }[];
      reads = results[2].rows[0];
    } finally {
      client.release();
    }
    expect(reads).toEqual({ seq_scan: "0", idx_scan: "0", idx_tup_fetch: "0" });
    const counts = await db().$queryRaw<{ skuId: number; availableKeys: number }[]>`
      SELECT "skuId", "availableKeys" FROM "SkuStamp" WHERE "skuId" IN (${a.sku.id}, ${b.sku.id}) ORDER BY "skuId"`;
    expect(counts).toEqual([
      { skuId: a.sku.id, availableKeys: 4 },
      { skuId: b.sku.id, availableKeys: 2 },
    ]);
  });
});
