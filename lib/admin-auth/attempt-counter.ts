import { db } from "../db/client";
import type { Tx } from "../db/tx";

// Sign-in attempt counters in PostgreSQL (table AdminSignInCounter), shared by
// every app instance. An attempt is RESERVED (counted) in one atomic upsert
// before any password work: of a burst of N concurrent guesses exactly `limit`
// see a count <= limit, the rest are refused without running scrypt. The window
// slides: every reservation pushes the expiry to now + window, so a client that
// keeps guessing stays refused. A successful sign-in gives its reservations back.

export interface Reservation {
  key: string;
  /** The count including this attempt. */
  count: number;
  allowed: boolean;
}

/** Counts one attempt against `key`; allowed while the count stays within `limit` in the window. */
export async function reserveAttempt(key: string, limit: number, windowSeconds: number): Promise<Reservation> {
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO "AdminSignInCounter" ("key", "count", "expiresAt")
    VALUES (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "AdminSignInCounter"."expiresAt" <= now() THEN 1 ELSE "AdminSignInCounter"."count" + 1 END,
      "expiresAt" = now() + make_interval(secs => ${windowSeconds})
    RETURNING "count"`;
  const count = Number(rows[0].count);
  if (Math.random() < 0.01) void sweepExpired();
  return { key, count, allowed: count <= limit };
}

/** Gives one reservation back (a successful sign-in is not a guess). */
export async function releaseAttempt(key: string): Promise<void> {
  await db().$executeRaw`UPDATE "AdminSignInCounter" SET "count" = GREATEST("count" - 1, 0) WHERE "key" = ${key}`;
}

/** Forgets a key entirely (success for a lock-out key, or an operator's unlock). */
export async function clearAttempts(key: string, tx: Tx = db()): Promise<number> {
  return tx.$executeRaw`DELETE FROM "AdminSignInCounter" WHERE "key" = ${key}`;
}

/** Forgets every key that starts with `prefix` (admin:unlock clears all addresses of one account); returns the keys. */
export async function clearAttemptsWithPrefix(prefix: string, tx: Tx = db()): Promise<string[]> {
  const rows = await tx.$queryRaw<{ key: string }[]>`
    DELETE FROM "AdminSignInCounter" WHERE left("key", ${prefix.length}) = ${prefix} RETURNING "key"`;
  return rows.map((r) => r.key);
}

/** Rows of long-gone windows; removed now and then so the table stays small. */
async function sweepExpired(): Promise<void> {
  await db().$executeRaw`DELETE FROM "AdminSignInCounter" WHERE "expiresAt" < now() - interval '1 hour'`.catch(() => undefined);
}
