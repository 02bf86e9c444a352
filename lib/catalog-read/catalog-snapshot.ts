import { loadCatalog, type CatalogCategory, type CatalogLoad, type CatalogProduct } from "../catalog/load-catalog";
import { stampCatalog } from "../catalog/stamp-catalog";
import { log } from "../log";
import type { Maybe } from "../maybe";
import { dropPage, type ViewCache } from "./page-cache";

// Issue 13.1-13.2: the in-process catalogue the supplier API serves. A
// refresh stamps the committed changes (stamp_catalog) and loads only the
// products stamped since the snapshot's clock; it patches the snapshot in
// place (one synchronous step, so a request sees the old or the new state,
// never half). While the catalogue is being read, a loop refreshes every
// REFRESH_EVERY_MS, so stock figures are a fraction of a second old and a
// request never waits for a refresh that is running; only the first request,
// or one after an idle spell, waits for one incremental load (milliseconds).
// Every FULL_EVERY_MS a full load (with a recount of every SKU's card keys,
// the safety net for the journal) is built beside the snapshot and swapped in.

const REFRESH_EVERY_MS = 300;
const IDLE_AGE_MS = 2000;
const KEEP_FRESH_FOR_MS = 60_000;
const FULL_EVERY_MS = 5 * 60_000;
const SLOW_REFRESH_MS = 500;

export interface CatalogState {
  /** Every product stamped at or before this (µs) is in `products`. */
  clock: number;
  /** When the load behind this state began (ms): what the state is at least as fresh as. */
  loadedAt: number;
  fullAt: number;
  categories: CatalogCategory[];
  settings: CatalogLoad["settings"];
  pricedLevels: Set<number>;
  /** Issue 38: buyers with contract prices (each sees a view of its own). */
  contractBuyers: Set<string>;
  /** Every stamped product, listed or not. */
  products: Map<number, CatalogProduct>;
  /** Listed products (D11) in list order (D10: category sort order, then id), and those of them that are active. */
  listed: number[];
  listedActive: number[];
  /** Every stamped product by ascending `updatedAt` (stamps are unique). */
  byStamp: CatalogProduct[];
  /** Serialized views (lib/catalog-read/catalog-cache.ts); a refresh drops what changed. */
  views: Map<string, ViewCache>;
}

let current: CatalogState | undefined;
let inflight: Promise<void> | undefined;
let fullInflight: Promise<void> | undefined;
let lastReadAt = 0;
let loopTimer: NodeJS.Timeout | undefined;

/** The snapshot to serve: at once while it is fresh (issue 40.4), after one refresh when it is missing or idle-old. */
export function catalogState(): Maybe<CatalogState> {
  lastReadAt = Date.now();
  if (!current || (!inflight && Date.now() - current.loadedAt > IDLE_AGE_MS)) {
    return refresh().then(() => {
      keepFresh();
      return current!;
    });
  }
  keepFresh();
  return current;
}

/** One incremental refresh (or the first, full load); concurrent callers share it. */
function refresh(): Promise<void> {
  inflight ??= (async () => {
    const startedAt = Date.now();
    if (!current) {
      current = await loadFull(startedAt);
      return;
    }
    await stampCatalog();
    const stamped = Date.now();
    const state = current;
    const load = await loadCatalog(state.clock);
    if (current === state) applyChanges(state, load, startedAt);
    const tookMs = Date.now() - startedAt;
    // Stock figures are as old as the last refresh: a slow one is worth a line.
    if (tookMs > SLOW_REFRESH_MS)
      log.warn({ tookMs, stampMs: stamped - startedAt, products: load.products.length }, "slow catalogue refresh");
  })().finally(() => {
    inflight = undefined;
  });
  return inflight;
}

async function loadFull(startedAt: number): Promise<CatalogState> {
  await stampCatalog({ recount: true });
  return buildState(await loadCatalog(null), startedAt);
}

function keepFresh() {
  if (loopTimer) return;
  // The callback's promise is never left rejected: its catch logs every failure.
  loopTimer = setTimeout(() => void refreshOnce(), REFRESH_EVERY_MS);
  loopTimer.unref();
}

async function refreshOnce(): Promise<void> {
  try {
    if (current && Date.now() - current.fullAt > FULL_EVERY_MS) fullInflight ??= swapInFullLoad();
    await refresh();
  } catch (err) {
    log.error({ err: (err as Error).message }, "catalogue refresh failed");
  } finally {
    loopTimer = undefined;
    if (Date.now() - lastReadAt < KEEP_FRESH_FOR_MS) keepFresh();
  }
}

/** Builds a full state beside the served one, brings it up to date, swaps it in. */
async function swapInFullLoad(): Promise<void> {
  try {
    const next = await loadFull(Date.now());
    await inflight; // an incremental refresh of the old state finishes first
    const startedAt = Date.now();
    applyChanges(next, await loadCatalog(next.clock), startedAt);
    current = next;
  } catch (err) {
    log.error({ err: (err as Error).message }, "full catalogue load failed");
  } finally {
    fullInflight = undefined;
  }
}

function buildState(load: CatalogLoad, startedAt: number): CatalogState {
  const state: CatalogState = {
    clock: load.clock,
    loadedAt: startedAt,
    fullAt: startedAt,
    categories: load.categories,
    settings: load.settings,
    pricedLevels: new Set(load.pricedLevels),
    contractBuyers: new Set(load.contractBuyers),
    products: new Map(load.products.map((p) => [p.id, p])),
    listed: [],
    listedActive: [],
    byStamp: [...load.products].sort((a, b) => a.updatedAt - b.updatedAt),
    views: new Map(),
  };
  orderLists(state);
  return state;
}

function applyChanges(state: CatalogState, load: CatalogLoad, startedAt: number) {
  const categoriesChanged = JSON.stringify(load.categories) !== JSON.stringify(state.categories);
  let reorder = categoriesChanged;
  for (const p of load.products) {
    const old = state.products.get(p.id);
    if (!old || old.listed !== p.listed || old.isActive !== p.isActive || old.categorySort !== p.categorySort) reorder = true;
    state.products.set(p.id, p);
  }
  if (load.products.length) {
    const changed = new Set(load.products.map((p) => p.id));
    state.byStamp = state.byStamp.filter((p) => !changed.has(p.id)).concat([...load.products].sort((a, b) => a.updatedAt - b.updatedAt));
    for (const view of state.views.values()) {
      for (const id of changed) view.json.delete(id);
      // A page's totals and slices move when the lists are reordered; otherwise only pages showing a changed product change.
      for (const [key, page] of view.pages) if (reorder || page.ids.some((id) => changed.has(id))) dropPage(view, key, page);
    }
  }
  if (categoriesChanged) for (const view of state.views.values()) view.categoriesBody = undefined;
  state.categories = load.categories;
  state.settings = load.settings;
  state.pricedLevels = new Set(load.pricedLevels);
  state.contractBuyers = new Set(load.contractBuyers);
  state.clock = load.clock;
  state.loadedAt = startedAt;
  if (reorder) orderLists(state);
}

function orderLists(state: CatalogState) {
  const listed = [...state.products.values()].filter((p) => p.listed).sort((a, b) => a.categorySort - b.categorySort || a.id - b.id);
  state.listed = listed.map((p) => p.id);
  state.listedActive = listed.filter((p) => p.isActive).map((p) => p.id);
}
