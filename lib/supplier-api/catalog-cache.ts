import { loadCatalog, type Catalog } from "../catalog/load-catalog";
import { getSettings } from "../settings/get-settings";
import type { Profile } from "../protocol/profiles";
import { serializeCategory, serializeProduct } from "./serializers/catalog";

// The catalogue endpoints serve from an in-process snapshot so a page of 100
// products costs a lookup, not a dozen queries and a serialization. A
// snapshot is at most MAX_AGE_MS old when served (stock figures are never
// more than a second stale); from REFRESH_AT_MS on, one background refresh
// runs while the current snapshot keeps serving, so requests rarely wait.
// The settings (image exposure, public base URL) are read in the same load,
// so a snapshot is always per (profile, settings).

type Bytes = Uint8Array<ArrayBuffer>;
const encoder = new TextEncoder();
const utf8 = (text: string): Bytes => encoder.encode(text);

const MAX_AGE_MS = 1000;
const REFRESH_AT_MS = 600;
const MAX_CACHED_PAGES = 64;

interface Snapshot {
  startedAt: number;
  catalog: Catalog;
  settings: { publicBaseUrl: string; imageExposure: boolean };
  views: Partial<Record<Profile, ProfileView>>;
}

/** One profile's serialized catalogue. */
export interface ProfileView {
  categoriesBody: Bytes;
  /** Serialized products, all (inactive included) and active only, in list order. */
  all: string[];
  active: string[];
  byId: Map<number, string>;
  pages: Map<string, Bytes>;
}

let current: Snapshot | undefined;
let inflight: { startedAt: number; promise: Promise<Snapshot> } | undefined;

/** Starts a load unless one that started recently enough is already running. */
function refresh(maxAgeMs: number): Promise<Snapshot> {
  const now = Date.now();
  if (inflight && now - inflight.startedAt < maxAgeMs) return inflight.promise;
  const mine = {
    startedAt: now,
    promise: (async () => {
      const [catalog, settings] = await Promise.all([loadCatalog(), getSettings()]);
      const snap: Snapshot = { startedAt: now, catalog, settings: { publicBaseUrl: settings.publicBaseUrl, imageExposure: settings.imageExposure }, views: {} };
      if (!current || current.startedAt < snap.startedAt) current = snap;
      return snap;
    })().finally(() => {
      if (inflight === mine) inflight = undefined;
    }),
  };
  inflight = mine;
  return mine.promise;
}

async function snapshot(): Promise<Snapshot> {
  const age = current ? Date.now() - current.startedAt : Infinity;
  if (age < REFRESH_AT_MS) return current!;
  if (age < MAX_AGE_MS) {
    refresh(MAX_AGE_MS).catch(() => undefined);
    return current!;
  }
  // Only a load that started less than MAX_AGE_MS ago is fresh enough to wait for.
  return refresh(MAX_AGE_MS);
}

export async function catalogView(profile: Profile): Promise<ProfileView> {
  const snap = await snapshot();
  let view = snap.views[profile];
  if (!view) {
    const all: string[] = [];
    const active: string[] = [];
    const byId = new Map<number, string>();
    for (const p of snap.catalog.products) {
      const json = JSON.stringify(serializeProduct(profile, p, snap.settings));
      all.push(json);
      if (p.isActive) active.push(json);
      byId.set(p.id, json);
    }
    const categoriesBody = utf8(JSON.stringify({ ok: true, categories: snap.catalog.categories.map(serializeCategory) }));
    view = { categoriesBody, all, active, byId, pages: new Map() };
    snap.views[profile] = view;
  }
  return view;
}

/** Section 4.3 response body for one page, built once per snapshot and page. */
export function productPage(view: ProfileView, page: number, pageSize: number, includeInactive: boolean): Bytes {
  const key = `${page}:${pageSize}:${includeInactive ? 1 : 0}`;
  let body = view.pages.get(key);
  if (!body) {
    const list = includeInactive ? view.all : view.active;
    const start = (page - 1) * pageSize;
    const items = start < list.length ? list.slice(start, start + pageSize) : [];
    body = utf8(
      `{"ok":true,"items":[${items.join(",")}],"total":${list.length},"page":${page},"page_size":${pageSize},"includes_inactive":${includeInactive}}`,
    );
    if (view.pages.size < MAX_CACHED_PAGES) view.pages.set(key, body);
  }
  return body;
}

/** Section 4.4 body: `{ ok, ...Product }`, or undefined for an unknown or deleted product. */
export function productDetail(view: ProfileView, id: number): Bytes | undefined {
  const json = view.byId.get(id);
  return json === undefined ? undefined : utf8(`{"ok":true,${json.slice(1)}`);
}
