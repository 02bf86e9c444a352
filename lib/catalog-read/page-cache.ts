import zlib from "node:zlib";

// The serialized answers the catalogue cache (catalog-cache.ts) keeps per
// view of the snapshot (catalog-snapshot.ts): each product's JSON, and the
// list pages in pieces with their gzip (decision 0025).

/** One (profile, price level)'s serialized answers. */
export interface ViewCache {
  json: Map<number, Uint8Array<ArrayBuffer>>;
  pages: Map<string, CachedPage>;
  /** What the pages in `pages` hold themselves (pageCost: their gzip, a reference per piece and per id). */
  pageBytes: number;
  categoriesBody?: Uint8Array<ArrayBuffer>;
}

/**
 * A list page: its body in pieces (head, each product's cached JSON between
 * commas, tail), the body gzipped once the thread pool has compressed it
 * (`gzipLater`; null until then, and `gzipping` settles when it is or will
 * not be), and the products on it (a refresh drops
 * only the pages showing a changed product). The body is kept in pieces,
 * not joined: a joined 145 KB page lives until stock on it changes, about a
 * second under load, long enough to reach V8's old generation, where those
 * bytes count towards the next full GC; 100 pages rebuilt a second made
 * that a full GC every few seconds, each a pause of 10-30 ms (issue 13.4).
 * A client that takes the page uncompressed gets the pieces joined for it
 * (`pageBody`), bytes that die young.
 */
export interface CachedPage {
  parts: Uint8Array<ArrayBuffer>[];
  /** The joined body's length. */
  length: number;
  gzip: Uint8Array | null;
  gzipping?: Promise<void>;
  ids: number[];
}

export function pageBody(page: CachedPage): Uint8Array<ArrayBuffer> {
  return Buffer.concat(page.parts, page.length); // a Buffer is a Uint8Array: no copy
}

/**
 * Cached list pages per view are bounded by what they hold themselves (the
 * gzip, and a reference per piece and per product id; the products' JSON
 * is the view's `json` cache), not by count: a count (64 once) left a
 * third of a 10,000-product catalogue's 100 pages rebuilt on every read.
 */
const MAX_PAGE_BYTES = 24 * 1024 * 1024;
const pageCost = (page: CachedPage) => 8 * (page.parts.length + page.ids.length) + (page.gzip?.length ?? 0);

/**
 * zlib's fastest level: a 145 KB page of 100 products shrinks about 7-fold
 * in about a millisecond, and the pages change every time stock moves.
 */
const GZIP_LEVEL = 1;

export function cachePage(view: ViewCache, key: string, page: CachedPage): void {
  if (view.pageBytes + pageCost(page) > MAX_PAGE_BYTES) return;
  view.pages.set(key, page);
  view.pageBytes += pageCost(page);
  gzipLater(view, key, page);
}

/**
 * Compresses a page on libuv's thread pool, not the event loop. A request
 * for a page whose gzip is underway waits for it (`gzipping`, about a
 * millisecond): sent uncompressed meanwhile, as before, 5-8 % of the pages
 * read under the benchmark's orders went out at 145 KB instead of 4-15 KB,
 * three quarters of all page bytes written (issue 13.4).
 */
function gzipLater(view: ViewCache, key: string, page: CachedPage): void {
  page.gzipping = new Promise((settled) => {
    // One output chunk (a page gzips to well under 128 KB): each further chunk is another trip between the threads.
    zlib.gzip(pageBody(page), { level: GZIP_LEVEL, chunkSize: 128 * 1024 }, (err, gzip) => {
      settled();
      // Dropped meanwhile (a refresh changed it), or no room: the page stays uncompressed.
      if (err || view.pages.get(key) !== page || view.pageBytes + gzip.length > MAX_PAGE_BYTES) return;
      if (gzip.length >= page.length) return; // a tiny page: nothing to gain
      page.gzip = gzip;
      view.pageBytes += gzip.length;
    });
  });
}

export function dropPage(view: ViewCache, key: string, page: CachedPage): void {
  view.pages.delete(key);
  view.pageBytes -= pageCost(page);
}
