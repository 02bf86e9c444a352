import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "../config/env";
import { PrismaClient } from "../generated/prisma/client";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __prisma?: PrismaClient; __catalogPool?: pg.Pool };

/**
 * Lazy singleton: nothing connects at import time (next build imports route
 * modules). DATABASE_URL is always set by the time a request arrives: by
 * scripts/start.ts for the server, by lib/db/connect.ts for the CLI.
 */
export function db(): PrismaClient {
  if (!globalForDb.__prisma) {
    const connectionString = env().DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    const adapter = new PrismaPg({ connectionString, max: env().DB_POOL_SIZE });
    globalForDb.__prisma = new PrismaClient({ adapter });
  }
  return globalForDb.__prisma;
}

/**
 * A small pool of its own for the catalogue snapshot's refresh (stamp and
 * load, lib/supplier-api/catalog-snapshot.ts), on the plain driver: each is
 * ONE round trip, so a refresh stays quick even when the server's event loop
 * is busy (every await waits a turn); and under heavy ordering, order
 * transactions queue on their buyer's balance row while holding connections
 * of db()'s pool, which a refresh must not wait behind (issue 13.1).
 */
export function catalogPool(): pg.Pool {
  if (!globalForDb.__catalogPool) {
    const connectionString = env().DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    const pool = new pg.Pool({ connectionString, max: CATALOG_POOL_SIZE, application_name: "cardkey-catalogue" });
    pool.on("error", () => undefined); // an idle connection dropped by the server: the next query opens another
    globalForDb.__catalogPool = pool;
  }
  return globalForDb.__catalogPool;
}
const CATALOG_POOL_SIZE = 2;

export async function disconnectDb(): Promise<void> {
  await Promise.all([globalForDb.__prisma?.$disconnect(), globalForDb.__catalogPool?.end().catch(() => undefined)]);
  globalForDb.__prisma = undefined;
  globalForDb.__catalogPool = undefined;
}
