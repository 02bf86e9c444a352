import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct, makeSku } from "../testing/factories";
import { startStubUpstream, type StubUpstream } from "../testing/stub-upstream";
import { signedRawRequest } from "../testing/test-client";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { editSkuSources } from "./edit-sku-sources";
import { importUpstreamCatalog } from "./import-upstream-catalog";
import { refreshSourceStock } from "./refresh-source-stock";
import type { ProductDetail } from "@/lib/testing/wire-types";

// Issue 26.1: the stock a downstream sees counts only what can be bought. An
// upstream that removes a product (a tombstone: `is_active: false`,
// `skus: []`) or drops a SKU from a product's list no longer sells it, so a
// source pointing at it counts 0 (decision 0049), and the SKU we imported
// from it shows 0 too; listed again, it counts again. Fed by a catalogue
// event POSTed to the real built server and by the stock refresh reading a
// stand-in upstream over HTTP; the catalogue (both profiles) is read over
// HTTP and polled within BOUND_MS.

const BOUND_MS = 5000; // the ~0.3 s catalogue refresh, with room for a shared 2-core machine
const upstreamKey = { apiKey: "gone-key", apiSecret: "gone-secret-for-events" };
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let app: AppServer;
let connectionId: number;
let importConnectionId: number;
const stubs: StubUpstream[] = [];
const seenAfterMs: number[] = [];

type Listed = { id: number; isActive: boolean; skus: [number, number][] };
/** What each stand-in upstream lists (none and inactive = a tombstone): the stock refresh's and the import's. */
let page50: Listed = { isActive: true, id: 50, skus: [] };
let catalogue: Listed[] = [];

/** A listing as both the import and the incremental sync read it (docs/protocol.md). */
const listing = (products: Listed[]) => ({
  ok: true,
  items: products.map((p) => ({
    id: p.id,
    slug: `p${p.id}`,
    title: { "zh-CN": `商品 ${p.id}`, en: `Product ${p.id}` },
    price_amount: "5.00",
    is_active: p.isActive,
    category_id: 1,
    skus: p.skus.map(([id, stock]) => ({ id, sku_code: `S${id}`, price_amount: "5.00", stock_quantity: stock, is_active: true })),
  })),
  total: products.length,
  page: 1,
  page_size: 100,
  sync_token: "2026-11-27T06:00:00.000001Z",
});

async function standInUpstream(products: () => Listed[]): Promise<number> {
  const stub = await startStubUpstream();
  stubs.push(stub);
  stub.answer = ({ path }) =>
    path.startsWith("/products?")
      ? { body: listing(products()) }
      : path.startsWith("/categories")
        ? { body: { ok: true, categories: [{ id: 1, parent_id: 0, slug: "c", name: { "zh-CN": "类", en: "C" }, sort_order: 0 }] } }
        : path.startsWith("/ping")
          ? { body: { ok: true, balance: "100.00" } }
          : { status: 404 };
  return (await addUpstreamConnection({ name: "gone", baseUrl: stub.origin, profile: "U", ...upstreamKey }, { actor: SYSTEM_ACTOR })).id;
}

beforeAll(async () => {
  const url = await useTestDatabase();
  buyer = await makeBuyer({ pointsCents: 1000n });
  connectionId = await standInUpstream(() => [page50]);
  importConnectionId = await standInUpstream(() => catalogue);
  app = await startAppServer(url);
}, 180_000);

afterAll(async () => {
  console.log(JSON.stringify({ issue26_source_gone_seen_after_ms: seenAfterMs }));
  await app?.stop();
  await Promise.all(stubs.map((s) => s.close()));
});

/** A SKU of ours with `keys` card keys and one upstream source, SKU `upstreamSkuId` of `connection`. */
async function sourcedSku(keys: number, upstreamSkuId: number, connection = connectionId) {
  const made = await makeProduct({ cardKeys: keys ? cardKeysFor(`G${upstreamSkuId}`, keys) : [] });
  await editSkuSources({
    skuCode: made.sku.skuCode,
    change: { op: "add-upstream", connectionId: connection, upstreamSkuId, maxCostCents: null },
    actor: SYSTEM_ACTOR,
  });
  return made.product.id;
}

/** Our copy of upstream product `upstreamProductId`, as `upstream:import` leaves it: one SKU per [upstream SKU, stock]. */
async function importedCopy(upstreamProductId: number, skus: [number, number][]) {
  const made = await makeProduct({ fulfillmentType: "upstream", stockQuantity: skus[0][1] });
  await db().product.update({ where: { id: made.product.id }, data: { upstreamConnectionId: connectionId, upstreamProductId } });
  await db().sku.update({ where: { id: made.sku.id }, data: { upstreamSkuId: skus[0][0] } });
  for (const [upstreamSkuId, stock] of skus.slice(1)) {
    const sku = await makeSku({ productId: made.product.id, stockQuantity: stock });
    await db().sku.update({ where: { id: sku.id }, data: { upstreamSkuId } });
  }
  return made.product.id;
}

/** Each SKU's stock_quantity as a downstream reads the product (-1 unlimited). */
async function stocks(productId: number, prefix: "/api/v1/upstream" | "/api/v1/provider" = "/api/v1/upstream"): Promise<number[]> {
  const res = await signedRawRequest(app.baseUrl, buyer, {
    method: "GET",
    path: `${prefix}/products/${productId}`,
    // Profile U keeps no replay record; Profile P's requests take the helper's distinct timestamps.
    ...(prefix === "/api/v1/upstream" ? { timestamp: Math.floor(Date.now() / 1000) } : {}),
  });
  if (res.status === 404) return []; // a new product reaches the catalogue within about a second
  expect(res.status, res.text).toBe(200);
  return res.json<ProductDetail>().skus.map((s: { stock_quantity: number }) => s.stock_quantity);
}

/** Polls Profile U until it shows `expected`, then Profile P must show the same. */
async function shows(productId: number, expected: number[]) {
  const t0 = Date.now();
  let last: number[] = [];
  while (Date.now() - t0 < BOUND_MS) {
    if (JSON.stringify((last = await stocks(productId))) === JSON.stringify(expected)) {
      seenAfterMs.push(Date.now() - t0);
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(last, `stock shown ${BOUND_MS} ms after the upstream changed`).toEqual(expected);
  expect(await stocks(productId, "/api/v1/provider")).toEqual(expected);
}

type EventProduct = { id: number; at: string; isActive?: boolean; skus: [number, number][] };
const event = (p: EventProduct) =>
  JSON.stringify({
    event: "catalog.updated",
    ok: true,
    timestamp: Math.floor(Date.now() / 1000),
    products: [
      {
        id: p.id,
        updated_at: p.at,
        is_active: p.isActive ?? p.skus.length > 0,
        price_amount: p.skus.length ? "5.00" : "0.00",
        skus: p.skus.map(([id, stock]) => ({
          id,
          price_amount: "5.00",
          stock_status: "available",
          stock_quantity: stock,
          is_active: true,
        })),
      },
    ],
  });

async function send(body: string): Promise<number> {
  const res = await signedRawRequest(app.baseUrl, upstreamKey, {
    method: "POST",
    path: `/api/upstream-callbacks/${connectionId}`,
    body,
    timestamp: Math.floor(Date.now() / 1000),
  });
  expect(res.status, res.text).toBe(200);
  return res.json<{ stock_updated: number }>().stock_updated;
}

const refresh = async () => expect((await refreshSourceStock({ connectionId }))[0].outcome).toBe("done");

describe("issue 26.1: an upstream SKU that is gone counts 0", () => {
  it("issue 26.1: a catalogue event removing the product (`skus: []`) or dropping the SKU zeroes its source and our copy; listed again, both count", async () => {
    const ours = await sourcedSku(2, 601); // our 2 keys + upstream SKU 601 of product 60
    const copy = await importedCopy(60, [[601, 3]]);
    await send(event({ id: 60, at: "2026-11-27T07:00:00.000Z", skus: [[601, 8]] }));
    await shows(ours, [10]);
    await shows(copy, [8]);
    // The product removed upstream: a tombstone names no SKU, yet 601 went with it.
    const tombstone = event({ id: 60, at: "2026-11-27T07:00:01.000Z", skus: [] });
    await send(tombstone);
    await shows(ours, [2]);
    await shows(copy, [0]);
    const listed = event({ id: 60, at: "2026-11-27T07:00:02.000Z", skus: [[601, 5]] });
    await send(listed);
    await shows(ours, [7]);
    await shows(copy, [5]);
    // Still listed, but without SKU 601.
    await send(event({ id: 60, at: "2026-11-27T07:00:03.000Z", skus: [[602, 9]] }));
    await shows(ours, [2]);
    await shows(copy, [0]);
    // The older event that listed it, again or late: nothing moves.
    expect(await send(listed)).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stocks(ours)).toEqual([2]);
    expect(await stocks(copy)).toEqual([0]);
    // Inactive with its SKUs still listed: not sold either.
    await send(event({ id: 60, at: "2026-11-27T07:00:04.000Z", isActive: false, skus: [[601, 5]] }));
    await shows(ours, [2]);
    await send(
      event({
        id: 60,
        at: "2026-11-27T07:00:05.000Z",
        skus: [
          [601, 4],
          [602, 9],
        ],
      }),
    );
    await shows(ours, [6]);
    await shows(copy, [4]);
    // The tombstone again, resent or late: it is older than what set the source.
    expect(await send(tombstone)).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stocks(ours)).toEqual([6]);
    expect(await stocks(copy)).toEqual([4]);
  });

  it("issue 26.1: a stock refresh that finds the SKU gone zeroes its source and our imported copy; listed again, both count", async () => {
    const copy = await importedCopy(50, [
      [501, 7],
      [502, 4],
    ]);
    const on501 = await sourcedSku(1, 501);
    const on502 = await sourcedSku(0, 502); // never listed by a refresh or event: its stock is the imported copy's
    await shows(on502, [4]);

    page50 = { id: 50, isActive: true, skus: [[501, 7]] }; // SKU 502 no longer in its product
    await refresh();
    await shows(on502, [0]);
    await shows(copy, [7, 0]);
    await shows(on501, [8]);

    page50 = {
      id: 50,
      isActive: true,
      skus: [
        [501, 7],
        [502, 6],
      ],
    };
    await refresh();
    await shows(on502, [6]);
    await shows(copy, [7, 6]);

    page50 = { id: 50, isActive: false, skus: [] }; // the product removed upstream: a tombstone
    await refresh();
    await shows(on501, [1]);
    await shows(on502, [0]);
    await shows(copy, [0, 0]);

    page50 = {
      id: 50,
      isActive: true,
      skus: [
        [501, 5],
        [502, 6],
      ],
    };
    await refresh();
    await shows(on501, [6]);
    await shows(on502, [6]);
    await shows(copy, [5, 6]);
  });

  it("issue 26.1: an import that no longer finds the SKU, or its product, zeroes its sources and our copy; imported again, both count", async () => {
    catalogue = [
      {
        id: 70,
        isActive: true,
        skus: [
          [701, 5],
          [702, 3],
        ],
      },
    ];
    await importUpstreamCatalog({ connectionId: importConnectionId, actor: SYSTEM_ACTOR });
    const copy = await db().product.findFirstOrThrow({ where: { upstreamConnectionId: importConnectionId, upstreamProductId: 70 } });
    const on701 = await sourcedSku(2, 701, importConnectionId);
    const on702 = await sourcedSku(0, 702, importConnectionId);
    await shows(on701, [7]); // our 2 keys + the import's 5
    await refreshSourceStock({ connectionId: importConnectionId }); // now a figure of the source's own: 5
    await shows(on701, [7]);

    catalogue = [{ id: 70, isActive: true, skus: [[702, 3]] }]; // SKU 701 no longer in its product
    await importUpstreamCatalog({ connectionId: importConnectionId, actor: SYSTEM_ACTOR });
    await shows(on701, [2]);
    await shows(copy.id, [0, 3]);

    catalogue = []; // the product no longer listed: delisted here, as before, and nothing of it counts
    await importUpstreamCatalog({ connectionId: importConnectionId, actor: SYSTEM_ACTOR });
    await shows(on702, [0]);
    const skus = await db().sku.findMany({ where: { productId: copy.id }, orderBy: { id: "asc" } });
    expect(skus.map((s) => [s.isActive, s.stockQuantity])).toEqual([
      [false, 0],
      [true, 0],
    ]);

    catalogue = [
      {
        id: 70,
        isActive: true,
        skus: [
          [701, 4],
          [702, 3],
        ],
      },
    ];
    await importUpstreamCatalog({ connectionId: importConnectionId, actor: SYSTEM_ACTOR });
    await shows(on701, [6]);
    await shows(on702, [3]);
    await shows(copy.id, [4, 3]);
  });
});
