import { env } from "../config/env";
import { catalogDb } from "../db/client";
import { Prisma } from "../generated/prisma/client";

/** SQL for a timestamp(6) as whole microseconds since the epoch (a bigint). */
export const MICROS = (ts: Prisma.Sql) => Prisma.sql`(extract(epoch FROM ${ts}) * 1000000)::bigint`;

/**
 * Runs stamp_catalog() (migration *_catalog_change_tracking): the catalogue
 * changes committed since the last run get new product stamps, and the clock
 * moves. Any instance may call it (the catalogue refresh and the catalogue
 * event job do); one runs at a time, and a caller that finds another one
 * running returns at once: that run stamps its changes too.
 * `recount` also recounts every SKU's available card keys (safety net).
 * Returns the clock in microseconds since the epoch (stamps are finer than a
 * JavaScript Date), or null when another caller was stamping.
 */
export async function stampCatalog({ recount = false }: { recount?: boolean } = {}): Promise<number | null> {
  try {
    const rows = await catalogDb().$transaction(
      (tx) => tx.$queryRaw<{ clock: bigint | null }[]>`
        SELECT ${MICROS(Prisma.sql`stamp_catalog(${env().CATALOG_EVENT_STOCK_THRESHOLDS}::int[], ${recount})`)} AS clock`,
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: 120_000 },
    );
    return rows[0].clock === null ? null : Number(rows[0].clock);
  } catch (err) {
    if (isSerializationFailure(err)) return null; // a stamper that committed after our snapshot began
    throw err;
  }
}

function isSerializationFailure(err: unknown): boolean {
  const e = err as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string } } }; message?: string };
  return e?.code === "P2034" || e?.meta?.code === "40001" || e?.meta?.driverAdapterError?.cause?.originalCode === "40001" || /could not serialize access/.test(e?.message ?? "");
}
