import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "../config/env";
import { PrismaClient } from "../generated/prisma/client";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __prisma?: PrismaClient };

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

export async function disconnectDb(): Promise<void> {
  await globalForDb.__prisma?.$disconnect();
  globalForDb.__prisma = undefined;
}
