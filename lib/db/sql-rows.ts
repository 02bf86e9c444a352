import pg from "pg";
import { dbPool } from "./client";
import type { Tx } from "./tx";

/**
 * Runs one SQL statement ($1, $2, … parameters) and returns its rows. The
 * order hot path (issue 13.4) sends its two statements through this:
 * `onPool` sends them straight to db()'s pool, each its own transaction,
 * without Prisma's query engine (its runtime was in 6.8 % of the server's
 * CPU samples under `bench:catalog-scale`, where these two statements were
 * the only Prisma queries of the hot path); `inTx` joins a Prisma
 * transaction. Columns come back as each driver reads them: int8
 * as a string from the pool and as a bigint through Prisma, bytea as a
 * Buffer or a Uint8Array; callers convert.
 *
 * `name` (one per statement text) makes it a prepared statement on the
 * pool's connection: parsed once per connection, and after five runs
 * PostgreSQL keeps a generic plan. Issue 28.1: planning was 0.32-0.39 ms of
 * the order-context read's 0.4 ms, 0.01 ms on a kept plan
 * (docs/benchmarks.md). Prisma's transaction ignores it.
 */
export type SqlRows = (sql: string, params: unknown[], name?: string) => Promise<Record<string, unknown>[]>;

export const onPool: SqlRows = async (sql, params, name) => {
  // Not pool.query(): it closes the connection after ANY error, so every
  // refused order (a RAISE in place_order: out of stock, out of points) cost
  // a new connection, its fork and its password exchange. An error the
  // server answered leaves the connection usable; only a broken one goes.
  const client = await dbPool().connect();
  let broken: Error | undefined;
  try {
    return (await client.query<Record<string, unknown>>(name ? { name, text: sql, values: params } : { text: sql, values: params })).rows;
  } catch (err) {
    if (!answeredByServer(err)) broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
};

/** An error PostgreSQL sent that leaves the session usable: not a lost connection (08), not a shutdown (57). */
function answeredByServer(err: unknown): boolean {
  return err instanceof pg.DatabaseError && !/^(08|57)/.test(err.code ?? "");
}

export const inTx =
  (tx: Tx): SqlRows =>
  (sql, params) =>
    tx.$queryRawUnsafe(sql, ...params);

/** The error's SQLSTATE and message as PostgreSQL sent them, from either driver. */
export function sqlError(err: unknown): { code?: string; message?: string } {
  const e = err as {
    code?: unknown;
    message?: string;
    meta?: { driverAdapterError?: { cause?: { originalCode?: string; originalMessage?: string } } };
  };
  const cause = e?.meta?.driverAdapterError?.cause;
  if (cause) return { code: cause.originalCode, message: cause.originalMessage };
  return typeof e?.code === "string" ? { code: e.code, message: e.message } : {};
}
