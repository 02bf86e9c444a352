import type { PriceBuyer } from "../catalog/buyer-prices";
import { after, type Maybe } from "../maybe";
import type { CatalogProduct } from "../catalog/load-catalog";
import type { Profile } from "../protocol/profiles";
import { syncToken } from "../protocol/sync-time";
import { catalogState, type CatalogState } from "./catalog-snapshot";
import { cachePage, type CachedPage, type ViewCache } from "./page-cache";
import { serializeCategory, serializeProduct } from "../serializers/catalog";

// Serialized catalogue answers, built from the snapshot (catalog-snapshot.ts)
// once per profile and price level and kept until a refresh changes the
// product: a page of 100 costs a lookup and a join, not a serialization.
// Member levels without any price share the plain view (issue 12.4: one
// snapshot per level, not per key).

type Bytes = Uint8Array<ArrayBuffer>;
const encoder = new TextEncoder();
const utf8 = (text: string): Bytes => encoder.encode(text);
const COMMA = utf8(",");
/** Serialized items as the pieces of `head … tail`, comma-separated, without building one big string. */
function pieces(head: string, items: Bytes[], tail: string): Bytes[] {
  const parts: Bytes[] = [utf8(head)];
  for (const [i, item] of items.entries()) {
    if (i) parts.push(COMMA);
    parts.push(item);
  }
  parts.push(utf8(tail));
  return parts;
}

const joined = (head: string, items: Bytes[], tail: string): Bytes => Buffer.concat(pieces(head, items, tail)); // a Buffer is a Uint8Array: no copy

export interface CatalogView {
  state: CatalogState;
  profile: Profile;
  buyer: PriceBuyer;
  cache: ViewCache;
}

/**
 * The catalogue as one buyer sees it. Buyers share a view per member level;
 * a buyer with contract prices (issue 38) has a view of its own.
 */
export function catalogView(profile: Profile, who: { memberLevelId: number; userId: string } | null = null): Maybe<CatalogView> {
  return after(catalogState(), (state) => viewOf(state, profile, who));
}

function viewOf(state: CatalogState, profile: Profile, who: { memberLevelId: number; userId: string } | null): CatalogView {
  const levelId = who && state.pricedLevels.has(who.memberLevelId) ? who.memberLevelId : null;
  const userId = who && state.contractBuyers.has(who.userId) ? who.userId : null;
  const key = `${profile}:${levelId ?? ""}:${userId ?? ""}`;
  let cached = state.views.get(key);
  if (!cached) {
    cached = { json: new Map(), pages: new Map(), pageBytes: 0 };
    state.views.set(key, cached);
  }
  return { state, profile, buyer: { levelId, userId }, cache: cached };
}

/** The product's item as UTF-8 (half the memory of a JavaScript string once a title has Chinese in it). */
function productJson(view: CatalogView, p: CatalogProduct): Bytes {
  let json = view.cache.json.get(p.id);
  if (json === undefined) {
    json = utf8(JSON.stringify(serializeProduct(view.profile, p, view.state.settings, view.buyer)));
    view.cache.json.set(p.id, json);
  }
  return json;
}

/** Section 4.2 body. */
export function categoriesBody(view: CatalogView): Bytes {
  view.cache.categoriesBody ??= utf8(JSON.stringify({ ok: true, categories: view.state.categories.map(serializeCategory) }));
  return view.cache.categoriesBody;
}

/** Section 4.3 response body for one page (in pieces, and soon after gzipped), built once per page until the catalogue changes. */
export function productPage(view: CatalogView, page: number, pageSize: number, includeInactive: boolean): CachedPage {
  const key = `${page}:${pageSize}:${includeInactive ? 1 : 0}`;
  const cached = view.cache.pages.get(key);
  if (cached) return cached;
  const list = includeInactive ? view.state.listed : view.state.listedActive;
  const start = (page - 1) * pageSize;
  const ids = start < list.length ? list.slice(start, start + pageSize) : [];
  const items = ids.map((id) => productJson(view, view.state.products.get(id)!));
  const parts = pieces(
    '{"ok":true,"items":[',
    items,
    `],"total":${list.length},"page":${page},"page_size":${pageSize},"includes_inactive":${includeInactive}}`,
  );
  const built: CachedPage = { parts, length: parts.reduce((n, p) => n + p.length, 0), gzip: null, ids };
  cachePage(view.cache, key, built);
  return built;
}

/**
 * Issue 12.1: products stamped at or after `firstStamp` (µs), by
 * (updated_at, id); with `includeInactive`, also inactive and delisted ones.
 * `sync_token` resumes after the last item of this page, or, on the last
 * page, at the snapshot's clock: nothing stamped later can be older.
 */
export function productSyncPage(view: CatalogView, firstStamp: number, page: number, pageSize: number, includeInactive: boolean): Bytes {
  const { byStamp, clock } = view.state;
  let lo = 0;
  let hi = byStamp.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byStamp[mid].updatedAt < firstStamp) lo = mid + 1;
    else hi = mid;
  }
  const matching = byStamp.slice(lo).filter((p) => includeInactive || (p.listed && p.isActive));
  const start = (page - 1) * pageSize;
  const items = start < matching.length ? matching.slice(start, start + pageSize) : [];
  const token = start + pageSize < matching.length ? items[items.length - 1].updatedAt : Math.max(clock, firstStamp - 1);
  return joined(
    '{"ok":true,"items":[',
    items.map((p) => productJson(view, p)),
    `],"total":${matching.length},"page":${page},"page_size":${pageSize},"includes_inactive":${includeInactive},"sync_token":"${syncToken(token)}"}`,
  );
}

/**
 * Section 4.4 body: `{ ok, ...Product }`, or undefined for an unknown or delisted product (D11).
 * `wrapped`: Dujiao-Next's `{ ok, product: Product }` (decision 0090), the same product's bytes.
 */
export function productDetail(view: CatalogView, id: number, wrapped = false): Bytes | undefined {
  const p = view.state.products.get(id);
  if (!p || !p.listed) return undefined;
  return wrapped
    ? joined('{"ok":true,"product":', [productJson(view, p)], "}")
    : joined('{"ok":true,', [productJson(view, p).subarray(1)], "");
}
