import { db } from "../db/client";
import { log } from "../log";
import { pathOf } from "../protocol/endpoints";
import { clientFor, loadConnection, type LoadedConnection } from "./connection";
import { STOCK_PAGE_SIZE, StockPageSchema, stockOfPage, type UpstreamStock } from "./source-stock-page";
import { storeUpstreamStock } from "./store-upstream-stock";
import { UpstreamError, upstreamTimeoutMs } from "./upstream-client";

// Issue 26.1: the stock refresh. For each enabled upstream connection that an
// enabled source uses, read what changed since the last run through the
// upstream's incremental sync (GET /products?updated_after=T, 100 a page) and
// store each listed SKU's stock as the last known stock of the sources
// pointing at it, and 0 for a SKU gone from its product (decision 0049);
// the triggers of 20261127103000_source_stock restamp the catalogue. Bounded: PAGES_PER_CONNECTION pages per connection and
// REQUESTS_PER_RUN in all per run (the token saved after each page lets the
// next run go on), each call at most TIMEOUT_CAP_MS. A connection whose
// breaker is open or half-open is not called (its probe belongs to an order,
// decision 0042); the refresh neither opens nor closes it. A lease in the
// connection's row lets one process at a time read a connection (the tick and
// `sku:refresh-stock` alike). A Dujiao-Next supplier (issue 37.3) has no such
// sync: its stock is read by `upstream:import`.

export const PAGES_PER_CONNECTION = 10;
export const REQUESTS_PER_RUN = 50;
const TIMEOUT_CAP_MS = 10_000;
// Long enough for every page of one connection, replay retries included (upstream-client.ts).
const LEASE_SECONDS = Math.ceil((PAGES_PER_CONNECTION * (TIMEOUT_CAP_MS + 2_100)) / 1000) + 10;

export interface StockRefreshResult {
  connectionId: number;
  /** done: read up to the upstream's present; more: stopped at a bound, the next run goes on; skipped: breaker open or half-open, or another process holds the lease; failed: nothing of the failing page was written. */
  outcome: "done" | "more" | "skipped_breaker" | "skipped_busy" | "failed";
  requests: number;
  skusSeen: number;
  sourcesUpdated: number;
  /** Ours, safe to show (UpstreamError's message): never the upstream's text. */
  error?: string;
}

/** One run over every connection (or one, `connectionId`). */
export async function refreshSourceStock(opts: { connectionId?: number } = {}): Promise<StockRefreshResult[]> {
  const only = opts.connectionId ?? null;
  const conns = await db().$queryRaw<{ id: number; breaker: boolean }[]>`
    SELECT c."id", (c."breakerOpenUntil" IS NOT NULL) AS "breaker" FROM "UpstreamConnection" c
    WHERE c."isEnabled" AND c."protocol" = 'svc' AND (${only}::int IS NULL OR c."id" = ${only}::int)
      AND (EXISTS (SELECT 1 FROM "SkuSource" ss WHERE ss."connectionId" = c."id" AND ss."kind" = 'upstream' AND ss."isEnabled")
        OR EXISTS (SELECT 1 FROM "Product" p WHERE p."upstreamConnectionId" = c."id" AND p."deletedAt" IS NULL))
    ORDER BY c."id"`;
  const budget = { left: REQUESTS_PER_RUN };
  const out: StockRefreshResult[] = [];
  for (const c of conns) {
    const none = { connectionId: c.id, requests: 0, skusSeen: 0, sourcesUpdated: 0 };
    if (c.breaker) out.push({ ...none, outcome: "skipped_breaker" });
    else if (budget.left <= 0) out.push({ ...none, outcome: "more" });
    else out.push(await withLease(c.id, (token) => refreshConnection(c.id, token, budget), none));
  }
  return out;
}

async function withLease(
  connectionId: number,
  fn: (token: string | null) => Promise<StockRefreshResult>,
  none: Omit<StockRefreshResult, "outcome">,
): Promise<StockRefreshResult> {
  const [lease] = await db().$queryRaw<{ token: string | null }[]>`
    UPDATE "UpstreamConnection" SET "stockLeaseUntil" = now() + make_interval(secs => ${LEASE_SECONDS}::double precision)
    WHERE "id" = ${connectionId} AND ("stockLeaseUntil" IS NULL OR "stockLeaseUntil" < now())
    RETURNING "stockSyncToken" AS "token"`;
  if (!lease) return { ...none, outcome: "skipped_busy" };
  try {
    return await fn(lease.token);
  } finally {
    await db().$executeRaw`UPDATE "UpstreamConnection" SET "stockLeaseUntil" = NULL WHERE "id" = ${connectionId}`;
  }
}

async function refreshConnection(connectionId: number, token: string | null, budget: { left: number }): Promise<StockRefreshResult> {
  const r: StockRefreshResult = { connectionId, outcome: "more", requests: 0, skusSeen: 0, sourcesUpdated: 0 };
  let conn: LoadedConnection;
  try {
    conn = await loadConnection(connectionId);
  } catch {
    return { ...r, outcome: "failed", error: "connection not found" };
  }
  const client = clientFor(conn, { timeoutMs: Math.min(upstreamTimeoutMs(), TIMEOUT_CAP_MS) });
  let after = token ?? "0";
  let saved = token;
  let page = 1;
  while (r.requests < PAGES_PER_CONNECTION && budget.left > 0) {
    budget.left--;
    r.requests++;
    const query = `updated_after=${encodeURIComponent(after)}&include_inactive=true&page_size=${STOCK_PAGE_SIZE}&page=${page}`;
    let answer;
    try {
      answer = await client.request(StockPageSchema, "GET", `${pathOf("listProducts")}?${query}`);
    } catch (err) {
      const error = err instanceof UpstreamError ? err.message : "unexpected error";
      log.warn({ component: "upstream", connectionId, error }, "stock refresh: page refused, nothing written");
      return { ...r, outcome: "failed", error };
    }
    const stock = stockOfPage(answer);
    r.skusSeen += stock.skuIds.length;
    r.sourcesUpdated += await storePage(connectionId, stock, saved, answer.sync_token ?? null);
    saved = answer.sync_token ?? saved;
    if (answer.items.length < STOCK_PAGE_SIZE) return { ...r, outcome: "done" };
    // An upstream without the sync extension answers a plain listing (no token): page through it.
    if (answer.sync_token) after = answer.sync_token;
    else page++;
  }
  return r;
}

/**
 * The page's stocks and the token after it, in one transaction: a run that
 * dies re-reads at most this page. The token moves only from the one this
 * run holds: a source added meanwhile reset it (the migration's trigger),
 * and the next run must then read from the start. The SKUs imported from
 * this upstream take the page's figures too (storeUpstreamStock).
 */
async function storePage(connectionId: number, stock: UpstreamStock, from: string | null, token: string | null): Promise<number> {
  return db().$transaction(async (tx) => {
    const updated = await storeUpstreamStock(tx, connectionId, stock, { ordered: false, copies: "all" });
    await tx.$executeRaw`
      UPDATE "UpstreamConnection" SET "stockSyncToken" = ${token}
      WHERE "id" = ${connectionId} AND ${token}::text IS NOT NULL AND "stockSyncToken" IS NOT DISTINCT FROM ${from}::text`;
    return updated;
  });
}
