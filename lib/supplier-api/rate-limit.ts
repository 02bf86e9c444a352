import { env } from "../config/env";
import type pg from "pg";
import { newPool } from "../db/client";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { appError } from "../errors";
import type { Maybe } from "../maybe";

// D31: per API key in both profiles, per IP in Profile P, requests per minute.
// The counters live in PostgreSQL (schema "rate_limit", outside Prisma's
// "public" schema so migrations never see it), so several app instances
// share them. Thresholds come from SiteSettings and may change at run time:
// limiters differ only in `points`, the counters (rows) are shared.

const WINDOW_SECONDS = 60;
const SCHEMA = "rate_limit";
const TABLE = "counters";

// "acg": ACG-Faka's shared-store requests per API key (issue 37.2), a bucket of their own.
type Scope = "key" | "ip" | "acg";

// On globalThis: the server's drain (lib/ops/drain.ts) closes the pool the bundled route code opened.
const g = globalThis as unknown as { __cardkeyRateLimitPool?: pg.Pool };
let ready: Promise<void> | undefined;
const limiters = new Map<string, RateLimiterPostgres>();

function storePool(): pg.Pool {
  g.__cardkeyRateLimitPool ??= newPool({ max: env().RATE_LIMIT_POOL_SIZE });
  return g.__cardkeyRateLimitPool;
}

export async function closeRateLimitPool(): Promise<void> {
  const pool = g.__cardkeyRateLimitPool;
  g.__cardkeyRateLimitPool = undefined;
  await pool?.end().catch(() => undefined);
}

function ensureTable(): Promise<void> {
  ready ??= (async () => {
    const p = storePool();
    await p.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`).catch(ignoreConcurrentCreate);
    await p
      .query(
        `CREATE TABLE IF NOT EXISTS ${SCHEMA}.${TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
      )
      .catch(ignoreConcurrentCreate);
  })().catch((err) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

/** Two instances creating the same schema or table at once: one gets 23505/42P06/42P07; the object exists either way. */
function ignoreConcurrentCreate(err: unknown) {
  if (!["23505", "42P06", "42P07"].includes((err as { code?: string }).code ?? "")) throw err;
}

function limiter(scope: Scope, points: number): RateLimiterPostgres {
  const id = `${scope}:${points}`;
  let l = limiters.get(id);
  if (!l) {
    l = new RateLimiterPostgres({
      storeClient: storePool(),
      storeType: "pool",
      schemaName: SCHEMA,
      tableName: TABLE,
      tableCreated: true,
      keyPrefix: `supplier-api:${scope}`,
      points,
      duration: WINDOW_SECONDS,
    });
    limiters.set(id, l);
  }
  return l;
}

/**
 * Counts one request against `id` in `scope`; throws 429 rate_limited with
 * Retry-After (whole seconds) when over `perMinute`. A limit of 0 or less
 * switches that limit off (for closed benchmarks; not the default).
 *
 * Counting each request in the shared store costs a database round trip per
 * request. For high limits this process reserves its allowance in blocks
 * instead: one shared `consume(id, block)` counts `block` requests at once,
 * which are then admitted here until used or until the window ends.
 * block = perMinute / 100 (at least 1), so a limit under 200/min is counted
 * request by request exactly as before. Above that the shared counter still
 * never admits more than the limit across all instances (D31); the cost is
 * that a key can be refused up to one block (1 %) per instance early, since
 * reserved but unused requests count until the window ends.
 */
export function consumeRateLimit(scope: Scope, id: string, perMinute: number): Maybe<void> {
  if (perMinute <= 0) return;
  const block = Math.max(1, Math.floor(perMinute / BLOCK_DIVISOR));
  if (block === 1) return consumeShared(scope, id, perMinute, 1).then(() => undefined);
  return takeAllowance(scope, id, perMinute, block);
}

/** One request of this process's reserved block: at once while one is left (issue 40.4), else after a new reservation. */
function takeAllowance(scope: Scope, id: string, perMinute: number, block: number): Maybe<void> {
  const key = `${scope}:${perMinute}:${id}`;
  const a = allowances.get(key);
  if (a && a.left > 0 && Date.now() < a.until) {
    a.left--;
    return;
  }
  // One reservation at a time per key; concurrent requests wait for it (and share its 429).
  let reserving = reservations.get(key);
  if (!reserving) {
    reserving = consumeShared(scope, id, perMinute, block)
      .then((msLeft) => {
        if (allowances.size >= MAX_ALLOWANCES) allowances.clear();
        allowances.set(key, { left: block, until: Date.now() + msLeft });
      })
      .finally(() => reservations.delete(key));
    reservations.set(key, reserving);
  }
  return reserving.then(() => takeAllowance(scope, id, perMinute, block));
}

const BLOCK_DIVISOR = 100;
const MAX_ALLOWANCES = 10_000;
const allowances = new Map<string, { left: number; until: number }>();
const reservations = new Map<string, Promise<void>>();

/** Counts `points` requests in the shared store; returns ms until the window ends, or throws 429. */
async function consumeShared(scope: Scope, id: string, perMinute: number, points: number): Promise<number> {
  await ensureTable();
  try {
    return (await limiter(scope, perMinute).consume(id, points)).msBeforeNext;
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw appError("rate_limited", "rate limit exceeded, retry later", { headers: { "Retry-After": String(retryAfter) } });
    }
    throw err;
  }
}
