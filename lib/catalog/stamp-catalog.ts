import { env } from "../config/env";
import type pg from "pg";
import { catalogPool } from "../db/client";
import { Prisma } from "../generated/prisma/client";

/** SQL for a timestamp(6) expression as whole microseconds since the epoch (a bigint). */
export const microsOf = (expression: string) => `(extract(epoch FROM ${expression}) * 1000000)::bigint`;
/** The same, for Prisma's tagged queries. */
export const MICROS = (expression: string) => Prisma.raw(microsOf(expression));

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
  // Numbers from the typed configuration only, so the literal is safe; the
  // simple protocol carries the three statements in one round trip.
  const thresholds = `'{${env()
    .CATALOG_EVENT_STOCK_THRESHOLDS.map((t) => Math.trunc(t))
    .join(",")}}'::int[]`;
  const client = await catalogPool().connect();
  try {
    const results = (await client.query(
      `BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT ${microsOf(`stamp_catalog(${thresholds}, ${recount})`)} AS clock; COMMIT`,
    )) as unknown as pg.QueryResult<{ clock: string | null }>[];
    const clock = results[1].rows[0].clock;
    return clock === null ? null : Number(clock);
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    if ((err as { code?: string }).code === "40001") return null; // a stamper that committed after our snapshot began
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Issue 33.9: stamps until a run of this caller's own has stamped, so every
 * change the caller committed before the call is stamped when it returns
 * (a run already going when the caller committed may not see those changes:
 * its snapshot is older). Used where a writer should not leave a large batch
 * of changes to the readers' next refresh (catalog:import). Gives up after
 * `timeoutMs` (null): the next refresh stamps them anyway.
 */
export async function stampCatalogOwnRun({ timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const clock = await stampCatalog();
    if (clock !== null || Date.now() > deadline) return clock;
    await new Promise((r) => setTimeout(r, 50));
  }
}
