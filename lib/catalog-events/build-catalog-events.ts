import { stampCatalog } from "../catalog/stamp-catalog";
import { env } from "../config/env";
import { db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";
import { catalogEventWire } from "../serializers/catalog-event";
import { loadEventProducts } from "./load-event-products";
import { queueCatalogEvent } from "./queue-catalog-event";

/** Issue 12.2: at most this many products in one event. */
export const EVENT_MAX_PRODUCTS = 500;
/** A backlog goes out as consecutive events at once, at most this many per key and pass (the rest on the next pass). */
export const EVENTS_PER_PASS = 20;

/**
 * Issue 12.2 (docs/decisions/0022-catalogue-events.md): stamps the committed
 * catalogue changes, then builds the events due: for every webhook of an
 * active key whose last event is at least CATALOG_EVENT_INTERVAL_SECONDS old,
 * that has products changed after its cursor, and that has no event in
 * retry (a receiver that is down gets one event retried, not a pile: the
 * changes wait in the cursor and go out together afterwards). Returns the
 * number of events made. Called by the tick job only (one at a time).
 */
export async function buildCatalogEvents(): Promise<number> {
  await stampCatalog();
  const due = await db().$queryRaw<{ credentialId: number; levelId: number; userId: string }[]>`
    SELECT w."credentialId", u."memberLevelId" AS "levelId", u."id"::text AS "userId"
    FROM "CatalogWebhook" w
    JOIN "ApiCredential" k ON k."id" = w."credentialId"
    JOIN "User" u ON u."id" = k."userId"
    WHERE k."isActive" AND u."status" = 'active'
      AND (w."lastEventAt" IS NULL OR w."lastEventAt" <= (now() AT TIME ZONE 'UTC') - make_interval(secs => ${env().CATALOG_EVENT_INTERVAL_SECONDS}))
      AND EXISTS (SELECT 1 FROM "ProductStamp" ps WHERE ps."notifiedAt" > w."cursor")
      AND NOT EXISTS (SELECT 1 FROM "CatalogEvent" e WHERE e."credentialId" = w."credentialId" AND e."status" = 'pending' AND e."attemptCount" > 0)
    ORDER BY w."id"`;
  let made = 0;
  for (const hook of due) {
    try {
      made += await buildForWebhook(hook);
    } catch (err) {
      // A concurrent PUT or DELETE of this webhook (serialization failure) or a bad row: this key waits for the next pass.
      log.warn(
        { component: "catalog-events", credentialId: hook.credentialId, err: String((err as Error)?.message ?? err) },
        "catalogue event not built",
      );
    }
  }
  return made;
}

/**
 * One key, in ONE REPEATABLE READ transaction with the clock: products after
 * the cursor in stamp order, 500 per event; the new cursor is the last
 * product's stamp when more remain, else the clock. Stamps are unique and only
 * handed out above the clock, so nothing is missed or sent twice.
 */
async function buildForWebhook(hook: { credentialId: number; levelId: number; userId: string }): Promise<number> {
  return db().$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ url: string; cursor: string; clock: string }[]>`
        SELECT w."url", w."cursor"::text AS cursor, (SELECT "stamp"::text FROM "CatalogClock" WHERE "id" = 1) AS clock
        FROM "CatalogWebhook" w WHERE w."credentialId" = ${hook.credentialId}`;
      if (!row) return 0;
      let cursor = row.cursor;
      let made = 0;
      while (made < EVENTS_PER_PASS) {
        const products = await loadEventProducts(tx, {
          after: cursor,
          limit: EVENT_MAX_PRODUCTS + 1,
          levelId: hook.levelId,
          userId: hook.userId,
        });
        const batch = products.slice(0, EVENT_MAX_PRODUCTS);
        if (batch.length) {
          const body = JSON.stringify(catalogEventWire(batch));
          await queueCatalogEvent(tx, { credentialId: hook.credentialId, url: row.url, body, productCount: batch.length });
          made++;
        }
        const more = products.length > EVENT_MAX_PRODUCTS;
        cursor = more ? batch[batch.length - 1].notifiedAt : row.clock;
        if (!more) break;
      }
      if (made) {
        await tx.$executeRaw`
          UPDATE "CatalogWebhook" SET "cursor" = ${cursor}::timestamp(6), "lastEventAt" = now() AT TIME ZONE 'UTC'
          WHERE "credentialId" = ${hook.credentialId}`;
      }
      return made;
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: 120_000 },
  );
}
