import { db } from "../../db/client";
import { Prisma } from "../../generated/prisma/client";
import { stampCatalog } from "../../catalog/stamp-catalog";
import { alertThreshold } from "../alert-context";
import { enqueueAlert } from "../enqueue-alert";
import { flipAlertCondition } from "../flip-condition";

// Issue 25: a SKU's available stock crossing below its threshold (per SKU,
// else the site-wide stock_low number, default 10) and back. Checked
// periodically rather than in the sale: the order hot path is one SQL
// statement that writes no SKU row (docs/decisions/0009, 0018), and a
// crossing is a condition flip, so 50 concurrent sales that cross it alert
// once. Auto SKUs count their available card keys as the catalogue stamps
// them (SkuStamp.availableKeys); manual and upstream SKUs their stock
// quantity (none = unlimited, never low). A SKU's first check only records
// its state: a SKU created empty, or low when alerts were set up, has
// crossed nothing yet. A SKU the catalogue stamp has not counted yet (no
// SkuStamp row: another stamper was busy) is not looked at: its keys would
// read as 0, and a first sight of "low" would hide the real crossing later.

interface Row {
  id: number;
  skuCode: string;
  title: unknown;
  stock: number;
  threshold: number;
  low: boolean;
}

export async function checkStock(): Promise<number> {
  await stampCatalog().catch(() => null); // fresher counts; another stamper running is fine
  const fallback = await alertThreshold("stock_low");
  const levels = Prisma.sql`
    SELECT k."id", k."skuCode", p."title",
           sku_visible_stock(k."id", p."fulfillmentType" = 'auto', st."availableKeys", k."stockQuantity") AS stock,
           COALESCE(k."alertStockThreshold", ${fallback}::int) AS threshold
    FROM "Sku" k
    JOIN "Product" p ON p."id" = k."productId"
    JOIN "SkuStamp" st ON st."skuId" = k."id" -- not yet counted: not looked at (above)
    WHERE k."deletedAt" IS NULL AND k."isActive" AND p."deletedAt" IS NULL AND p."isActive"`;
  // First sight of a SKU: its state is recorded, in one statement, without an alert.
  await db().$executeRaw`
    INSERT INTO "AlertCondition" ("key", "active", "seq")
    SELECT 'stock:' || s."id", s.stock < s.threshold, 1 FROM (${levels}) s
    WHERE s.stock IS NOT NULL
    ON CONFLICT ("key") DO NOTHING`;
  const rows = await db().$queryRaw<Row[]>`
    SELECT s."id", s."skuCode", s."title", s.stock::int AS stock, s.threshold::int AS threshold, s.stock < s.threshold AS low
    FROM (${levels}) s JOIN "AlertCondition" c ON c."key" = 'stock:' || s."id"
    WHERE s.stock IS NOT NULL AND ((s.stock < s.threshold AND NOT c."active") OR (s.stock >= s.threshold AND c."active"))
    LIMIT 1000`;
  let alerts = 0;
  for (const r of rows) {
    await db().$transaction(async (tx) => {
      const seq = await flipAlertCondition(tx, `stock:${r.id}`, r.low);
      if (seq === null) return;
      const kind = r.low ? "stock_low" : "stock_recovered";
      // "Back above" only answers a "below" that was told (not a SKU first seen empty).
      if (!r.low && !(await tx.alertEvent.findUnique({ where: { dedupeKey: `stock_low:${r.id}:${seq - 1}` }, select: { id: true } })))
        return;
      const params = { skuId: r.id, skuCode: r.skuCode, title: titleOf(r.title), stock: r.stock, threshold: r.threshold };
      if (await enqueueAlert(tx, { kind, dedupeKey: `${kind}:${r.id}:${seq}`, params })) alerts++;
    });
  }
  return alerts;
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
