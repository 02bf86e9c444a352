import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "../config/env";
import { PrismaClient } from "../generated/prisma/client";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __prisma?: PrismaClient; __catalogPrisma?: PrismaClient };

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
 * load, lib/supplier-api/catalog-snapshot.ts): under heavy ordering, order
 * transactions queue on their buyer's balance row while holding connections
 * of db()'s pool, and a refresh waiting behind them would let stock figures
 * go stale (issue 13.1).
 */
export function catalogDb(): PrismaClient {
  if (!globalForDb.__catalogPrisma) {
    const connectionString = env().DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    globalForDb.__catalogPrisma = new PrismaClient({ adapter: new PrismaPg({ connectionString, max: CATALOG_POOL_SIZE }) });
  }
  return globalForDb.__catalogPrisma;
}
const CATALOG_POOL_SIZE = 2;

export async function disconnectDb(): Promise<void> {
  await Promise.all([globalForDb.__prisma?.$disconnect(), globalForDb.__catalogPrisma?.$disconnect()]);
  globalForDb.__prisma = undefined;
  globalForDb.__catalogPrisma = undefined;
}
