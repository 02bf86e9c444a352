import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "../config/env";
import { PrismaClient } from "../generated/prisma/client";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __prisma?: PrismaClient; __pool?: pg.Pool; __catalogPool?: pg.Pool };

/**
 * Lazy singleton: nothing connects at import time (next build imports route
 * modules). DATABASE_URL is always set by the time a request arrives: by
 * scripts/start.ts for the server, by lib/db/connect.ts for the CLI.
 */
export function db(): PrismaClient {
  globalForDb.__prisma ??= new PrismaClient({ adapter: new PrismaPg(dbPool()) });
  return globalForDb.__prisma;
}

/**
 * db()'s connection pool, for the few hot statements that skip Prisma's
 * query engine (lib/db/sql-rows.ts): one pool, so those and Prisma's
 * queries share DB_POOL_SIZE connections.
 */
export function dbPool(): pg.Pool {
  globalForDb.__pool ??= newPool({ max: env().DB_POOL_SIZE });
  return globalForDb.__pool;
}

/** A pool on DATABASE_URL (which must be set by now). */
export function newPool(options: Omit<pg.PoolConfig, "connectionString">): pg.Pool {
  const connectionString = env().DATABASE_URL;
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const pool = new pg.Pool({ connectionString, ...options });
  pool.on("error", () => undefined); // an idle connection dropped by the server: the next query opens another
  return pool;
}

/**
 * A small pool of its own for the catalogue snapshot's refresh (stamp and
 * load, lib/catalog-read/catalog-snapshot.ts), on the plain driver: each is
 * ONE round trip, so a refresh stays quick even when the server's event loop
 * is busy (every await waits a turn); and under heavy ordering, order
 * transactions queue on their buyer's balance row while holding connections
 * of db()'s pool, which a refresh must not wait behind (issue 13.1).
 */
export function catalogPool(): pg.Pool {
  globalForDb.__catalogPool ??= newPool({ max: CATALOG_POOL_SIZE, application_name: "cardkey-catalogue" });
  return globalForDb.__catalogPool;
}
const CATALOG_POOL_SIZE = 2;

export async function disconnectDb(): Promise<void> {
  await globalForDb.__prisma?.$disconnect();
  await Promise.all([globalForDb.__pool?.end().catch(() => undefined), globalForDb.__catalogPool?.end().catch(() => undefined)]);
  globalForDb.__prisma = undefined;
  globalForDb.__pool = undefined;
  globalForDb.__catalogPool = undefined;
}
