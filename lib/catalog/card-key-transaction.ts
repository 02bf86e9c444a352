import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "../config/env";
import { PrismaClient } from "../generated/prisma/client";
import type { Tx } from "../db/tx";
import { CardKeyStage } from "./card-key-stage";

/**
 * Runs `fn` in ONE transaction with a CardKeyStage on that transaction's own
 * connection, so COPY (which Prisma cannot send) and the Prisma queries of
 * the import commit or roll back together. A pool of exactly one connection
 * backs a short-lived client: the connection the transaction checks out is
 * the only one there is, so it is the one COPY must use (decision 0020).
 * Keys moved get one CardKeyBatch per SKU, of `source` (and `adminUserId`);
 * `chunkKeys` makes the stage move smaller chunks (tests; a console confirm).
 */
export async function withCardKeyStage<T>(
  fn: (tx: Tx, stage: CardKeyStage) => Promise<T>,
  opts: { source: string; adminUserId?: number; timeout?: number; chunkKeys?: number },
): Promise<T> {
  const pool = new pg.Pool({ connectionString: env().DATABASE_URL, max: 1, application_name: "cardkey-import" });
  let conn: pg.PoolClient | undefined;
  pool.on("acquire", (client) => (conn = client));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const batch = { source: opts.source, adminUserId: opts.adminUserId ?? null };
  try {
    return await prisma.$transaction(async (tx) => fn(tx, await CardKeyStage.open(conn!, batch, opts.chunkKeys)), {
      maxWait: 10_000,
      timeout: opts.timeout ?? 600_000,
    });
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}
