import type { Tx } from "../db/tx";
import { Prisma } from "../generated/prisma/client";
import { alertThreshold } from "./alert-context";
import { enqueueAlert } from "./enqueue-alert";
import { flipAlertCondition } from "./flip-condition";

// Issue 25, issue 33.8: one SKU's low-stock condition ("stock:<id>") brought
// in line with its stock and threshold now, in the caller's transaction, with
// its alert. The periodic check (checks/stock.ts) calls it for the SKUs whose
// recorded condition disagrees; setting a threshold (sku:threshold, the
// console, the site-wide stock_low number) calls it in the same transaction,
// so the condition is never left as judged under an old threshold (a crossing
// after it would otherwise be no change, and never alert). Exactly once across
// instances: the condition is a row, flipped by one guarded upsert.
//
// First sight (no condition row yet): below the threshold alerts ("low since
// it was added"), unless the SKU never had any stock (no card key, no sale:
// created empty, to be filled); not below is recorded silently.
// A threshold change that ends a low is recorded silently: nothing came back,
// the operator moved the line. One that starts a low alerts.

export type StockCause = "check" | "threshold";

/** True when the SKU ever had stock: a card key (sold or not) or a sale. Evaluated for a first sight at 0 only. */
export const HAD_STOCK = (sku: Prisma.Sql) =>
  Prisma.sql`(EXISTS (SELECT 1 FROM "CardKey" ck WHERE ck."skuId" = ${sku}) OR EXISTS (SELECT 1 FROM "OrderItem" oi WHERE oi."skuId" = ${sku}))`;

/**
 * Every active SKU the catalogue stamp has counted (a SKU without a SkuStamp
 * row would read as 0 keys: not looked at until it is counted), with its
 * visible stock (decision 0042; NULL = unlimited) and threshold.
 */
export const stockLevels = (fallback: number, where: Prisma.Sql = Prisma.sql`true`) => Prisma.sql`
  SELECT k."id", k."skuCode", p."title",
         sku_visible_stock(k."id", p."fulfillmentType" = 'auto', st."availableKeys", k."stockQuantity") AS stock,
         COALESCE(k."alertStockThreshold", ${fallback}::int) AS threshold
  FROM "Sku" k
  JOIN "Product" p ON p."id" = k."productId"
  JOIN "SkuStamp" st ON st."skuId" = k."id"
  WHERE k."deletedAt" IS NULL AND k."isActive" AND p."deletedAt" IS NULL AND p."isActive" AND ${where}`;

/** SKUs (at most `limit`) whose recorded condition is missing or disagrees with their stock now. */
export async function skusToEvaluate(client: Tx, fallback: number, where?: Prisma.Sql, limit = 1000): Promise<number[]> {
  const rows = await client.$queryRaw<{ id: number }[]>`
    SELECT s."id" FROM (${stockLevels(fallback, where)}) s LEFT JOIN "AlertCondition" c ON c."key" = 'stock:' || s."id"
    WHERE s.stock IS NOT NULL AND (c."key" IS NULL OR c."active" IS DISTINCT FROM (s.stock < s.threshold))
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

interface Level {
  id: number;
  skuCode: string;
  title: unknown;
  stock: number | null;
  threshold: number;
  active: boolean | null;
  stocked: boolean;
  uncounted: boolean;
}

/** Returns the alert kind enqueued, or null (no change, or a change recorded without an alert). */
export async function evaluateSkuStock(tx: Tx, skuId: number, cause: StockCause): Promise<"stock_low" | "stock_recovered" | null> {
  const key = `stock:${skuId}`;
  // The condition row first: callers judging this SKU at once (instances'
  // checks, a threshold change) take turns, and each reads the stock and
  // threshold after the one before committed, never a count older than the
  // state it changes. (A first sight has no row yet: its insert is exclusive.)
  await tx.$queryRaw`SELECT 1 FROM "AlertCondition" WHERE "key" = ${key} FOR UPDATE`;
  const fallback = await alertThreshold("stock_low", tx);
  const [r] = await tx.$queryRaw<Level[]>`
    SELECT s."id", s."skuCode", s."title", s.stock::int AS stock, s.threshold::int AS threshold, c."active",
           (s.stock > 0 OR ${HAD_STOCK(Prisma.sql`s."id"`)}) AS stocked,
           (s.stock = 0 AND EXISTS (SELECT 1 FROM "KeyStock" ck WHERE ck."skuId" = s."id")) AS uncounted
    FROM (${stockLevels(fallback, Prisma.sql`k."id" = ${skuId}`)}) s
    LEFT JOIN "AlertCondition" c ON c."key" = 'stock:' || s."id"`;
  if (!r || r.stock === null) return null;
  const low = r.stock < r.threshold;
  if (r.active === low) return null;
  // Keys added after the stamp this count comes from (another stamper was busy):
  // a first sight waits for the next check rather than call a stocked SKU empty.
  if (r.active === null && r.uncounted) return null;
  if (r.active === null && low && !r.stocked) {
    await tx.$executeRaw`INSERT INTO "AlertCondition" ("key", "active", "seq") VALUES (${key}, true, 1) ON CONFLICT ("key") DO NOTHING`;
    return null;
  }
  const seq = await flipAlertCondition(tx, key, low); // a first sight not low: recorded, no crossing
  if (seq === null || (!low && cause === "threshold")) return null;
  const kind = low ? "stock_low" : "stock_recovered";
  // "Back above" only answers a "below" that was told (not one recorded silently).
  if (!low && !(await tx.alertEvent.findUnique({ where: { dedupeKey: `stock_low:${r.id}:${seq - 1}` }, select: { id: true } })))
    return null;
  const since = !low ? null : r.active === null ? "added" : cause === "threshold" ? "threshold" : null;
  const params = { skuId: r.id, skuCode: r.skuCode, title: titleOf(r.title), stock: r.stock, threshold: r.threshold, since };
  return (await enqueueAlert(tx, { kind, dedupeKey: `${kind}:${r.id}:${seq}`, params })) ? kind : null;
}

/** A product title is a language object (D5); any of its texts names it. */
function titleOf(title: unknown): string {
  if (typeof title === "string") return title.slice(0, 100);
  if (title && typeof title === "object") {
    const t = title as Record<string, unknown>;
    const text = [t["zh-CN"], t.en, ...Object.values(t)].find((x) => typeof x === "string");
    if (typeof text === "string") return text.slice(0, 100);
  }
  return "-";
}
