import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { GET as getProducts } from "@/app/api/v1/[profile]/[[...rest]]/route";
import { signedHeaders } from "../protocol/client";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { catalogView, productPage } from "./catalog-cache";
import { pageBody, type CachedPage } from "./page-cache";

const cost = (p: CachedPage) => 8 * (p.parts.length + p.ids.length) + (p.gzip?.length ?? 0);

// Issue 13.4: list pages are cached per view until a refresh changes a
// product on them, bounded by bytes. A bound by count (64) left a third of a
// 10,000-product catalogue's 100 pages rebuilt on every read.

beforeAll(async () => {
  await useTestDatabase();
  for (let i = 0; i < 70; i++) await makeProduct();
}, 120_000);

describe("catalogue page cache (issue 13.4)", () => {
  it("keeps every page read, past 64, and counts their bytes", async () => {
    const view = await catalogView("U");
    const pages = Math.min(80, view.state.listed.length);
    expect(pages).toBeGreaterThan(64);
    const first = Array.from({ length: pages }, (_, i) => productPage(view, i + 1, 1, false));
    const again = Array.from({ length: pages }, (_, i) => productPage(view, i + 1, 1, false));
    // The same bytes object: answered from the cache, not rebuilt.
    again.forEach((body, i) => expect(body).toBe(first[i]));
    expect(view.cache.pages.size).toBe(pages);
    expect(view.cache.pageBytes).toBe(first.reduce((n, p) => n + cost(p), 0));
  });

  it("gzips each cached page once, off the event loop, and counts those bytes too", async () => {
    const view = await catalogView("U");
    const page = productPage(view, 2, 20, false);
    for (let i = 0; i < 100 && !page.gzip; i++) await new Promise((r) => setTimeout(r, 10));
    expect(page.gzip).not.toBeNull();
    const body = Buffer.from(pageBody(page));
    expect(body.length).toBe(page.length);
    expect((JSON.parse(body.toString("utf8")) as { items: unknown[] }).items).toHaveLength(20);
    expect(zlib.gunzipSync(page.gzip!).equals(body)).toBe(true);
    expect(page.gzip!.length).toBeLessThan(page.length);
    expect(productPage(view, 2, 20, false)).toBe(page);
    const pages = [...view.cache.pages.values()];
    expect(view.cache.pageBytes).toBe(pages.reduce((n, p) => n + cost(p), 0));
  });

  it("a refresh drops only the page of the changed product, and its bytes", async () => {
    const view = await catalogView("U");
    const id = view.state.listed[0];
    const page = productPage(view, 1, 1, false);
    await new Promise((r) => setTimeout(r, 300)); // its gzip, if any, is in the count by then
    const before = { size: view.cache.pages.size, bytes: view.cache.pageBytes, page };
    const pageBytes = cost(before.page);
    await db().product.update({ where: { id }, data: { priceCents: 777n } });
    await new Promise((r) => setTimeout(r, 2500)); // the refresh loop runs every 300 ms; an idle snapshot refreshes on the next read
    const after = await catalogView("U");
    expect(after.cache.pages.size).toBe(before.size - 1);
    expect(after.cache.pageBytes).toBe(before.bytes - pageBytes);
    expect(productPage(after, 1, 1, false)).not.toBe(before.page);
  });

  it("through Next a page goes uncompressed, whatever the client accepts: Next drops a route's Content-Encoding (decision 0025)", async () => {
    const buyer = await makeBuyer();
    const path = "/api/v1/upstream/products";
    const call = () =>
      getProducts(
        new Request(`http://127.0.0.1${path}?page_size=20&page=3`, {
          headers: { ...signedHeaders(buyer, "GET", path, ""), "Accept-Encoding": "gzip" },
        }),
      );
    await call();
    await new Promise((r) => setTimeout(r, 300)); // the page's gzip is ready by then
    const res = await call();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect((JSON.parse(await res.text()) as { items: unknown[] }).items).toHaveLength(20);
  });
});
