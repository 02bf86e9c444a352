// The catalogue file of `npm run bench:catalog-scale`: `products` auto
// products of two SKUs each and `keys` text card keys spread evenly over the
// SKUs, written as a stream (the bench never holds the file either).
import crypto from "node:crypto";
import fs from "node:fs";
import { pathOf } from "../../lib/protocol/endpoints";
import type { ScaleSku } from "./scale-orders";
import { once } from "node:events";

const lang = (s: string) => ({ "zh-CN": s, en: s });

export const skuCode = (run: string, product: number, sku: number) => `S-${run}-${product}-${sku}`;

export async function writeScaleCatalog(
  file: string,
  { run, products, keys }: { run: string; products: number; keys: number },
): Promise<void> {
  const out = fs.createWriteStream(file);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, "drain");
  };
  const skus = products * 2;
  const salt = crypto.randomBytes(4).toString("hex");
  await write(`{"categories":${JSON.stringify([{ slug: `scale-${run}`, name: lang("Scale"), sort_order: 0, parent: null }])},"products":[`);
  let next = 0;
  for (let p = 0; p < products; p++) {
    const product = {
      slug: `scale-${run}-${p}`,
      category: `scale-${run}`,
      title: lang(`Scale product ${p}`),
      description: lang("benchmark product"),
      content: lang("Benchmark product ![logo](/uploads/logo.png) with some detail text. ".repeat(4)),
      fulfillment_type: "auto",
      delivery_format: "text",
      price_amount: "1.00",
      original_price: "2.00",
      logo: "/uploads/logo.png",
      images: ["/uploads/a.png"],
      skus: [0, 1].map((s) => {
        // Even spread: SKU i gets keys [i*keys/skus, (i+1)*keys/skus).
        const i = p * 2 + s;
        const end = Math.floor(((i + 1) * keys) / skus);
        const cardKeys: string[] = [];
        for (; next < end; next++) cardKeys.push(`K-${run}-${salt}-${next}-${((next * 2654435761) >>> 0).toString(36)}`);
        return { sku_code: skuCode(run, p, s), spec_values: { name: String(s) }, price_amount: "1.00", card_keys: cardKeys };
      }),
    };
    await write((p ? "," : "") + JSON.stringify(product));
  }
  await write("]}");
  out.end();
  await once(out, "finish");
}

/**
 * Runs the import while a downstream reads page 1 every second (issue 33.9),
 * so the server's snapshot is live, refreshing, when the import returns;
 * `importedAt` is that return.
 */
export async function importWhileRead<T>(runImport: () => Promise<T>, get: (path: string) => Promise<unknown>) {
  let importing = true;
  const reading = (async () => {
    while (importing) {
      await get(`${pathOf("listProducts")}?page=1&page_size=100`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  const imported = await runImport().finally(() => (importing = false));
  const importedAt = Date.now();
  await reading;
  return { imported, importedAt };
}

/**
 * The SKUs of the run's import as the API lists them, each with the stock the
 * file gave it; `pages` of 100 products. The catalogue is eventually
 * consistent: page 1 is polled (bounded) until its total counts the import,
 * then every page is walked as a client would; a walk that misses one of the
 * run's SKUs starts over. Issue 33.9: `listedAfterMs` is from `importedAt`
 * (the CLI's return) to the answer of page 1 of the first walk that lists
 * every imported product (the snapshot is swapped whole, so that answer is
 * already the complete one); `walkMs` is that walk's length.
 */
/** The fields of a product page (GET /products) the walk reads. */
export type ScalePage = { total: number; items: { id: number; skus: { id: number; sku_code: string }[] }[] };

export async function walkScaleCatalog(
  get: (path: string) => Promise<ScalePage>,
  { run, products, keys, importedAt }: { run: string; products: number; keys: number; importedAt: number },
): Promise<{ skus: ScaleSku[]; pages: number; listedAfterMs: number; walkMs: number }> {
  const perSku = new Map<string, number>();
  for (let i = 0; i < products * 2; i++)
    perSku.set(skuCode(run, i >> 1, i & 1), Math.floor(((i + 1) * keys) / (products * 2)) - Math.floor((i * keys) / (products * 2)));
  const pageUrl = (page: number) => `${pathOf("listProducts")}?page=${page}&page_size=100`;
  for (;;) {
    if (Date.now() - importedAt > 120_000) throw new Error("the import was not listed within 120 s");
    const first = await get(pageUrl(1));
    const firstAt = Date.now();
    if (first.total < products) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const pages = Math.ceil(first.total / 100);
    const skus: ScaleSku[] = [];
    for (let page = 1; page <= pages; page++) {
      for (const p of (page === 1 ? first : await get(pageUrl(page))).items) {
        for (const s of p.skus) if (perSku.has(s.sku_code)) skus.push({ skuId: s.id, productId: p.id, stock: perSku.get(s.sku_code)! });
      }
    }
    if (skus.length === products * 2) return { skus, pages, listedAfterMs: firstAt - importedAt, walkMs: Date.now() - firstAt };
  }
}
