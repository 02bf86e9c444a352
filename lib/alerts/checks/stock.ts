import { db } from "../../db/client";
import { Prisma } from "../../generated/prisma/client";
import { stampCatalog } from "../../catalog/stamp-catalog";
import { alertThreshold } from "../alert-context";
import { evaluateSkuStock, HAD_STOCK, skusToEvaluate, stockLevels } from "../evaluate-sku-stock";

// Issue 25: a SKU's available stock crossing below its threshold (per SKU,
// else the site-wide stock_low number, default 10) and back. Checked
// periodically rather than in the sale: the order hot path is one SQL
// statement that writes no SKU row (docs/decisions/0009, 0018), and a
// crossing is a condition flip, so 50 concurrent sales that cross it alert
// once. Auto SKUs count their available card keys as the catalogue stamps
// them (SkuStamp.availableKeys); manual and upstream SKUs their stock
// quantity (none = unlimited, never low). What a crossing and a first sight
// mean is in evaluate-sku-stock.ts (issue 33.8: a SKU first seen low alerts).

export async function checkStock(): Promise<number> {
  await stampCatalog().catch(() => null); // fresher counts; another stamper running is fine
  const fallback = await alertThreshold("stock_low");
  // First sight of the many SKUs that need no alert, in one statement: not
  // low, or empty and never stocked (created empty; asked of new SKUs only,
  // OrderItem has no index by SKU). The rest go one by one.
  await db().$executeRaw`
    INSERT INTO "AlertCondition" ("key", "active", "seq")
    SELECT 'stock:' || s."id", s.stock < s.threshold, 1 FROM (${stockLevels(fallback)}) s
    WHERE s.stock IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "AlertCondition" c WHERE c."key" = 'stock:' || s."id")
      AND (s.stock >= s.threshold OR (s.stock = 0 AND NOT ${HAD_STOCK(Prisma.sql`s."id"`)}))
    ON CONFLICT ("key") DO NOTHING`;
  let alerts = 0;
  for (const id of await skusToEvaluate(db(), fallback)) {
    if (await db().$transaction((tx) => evaluateSkuStock(tx, id, "check"))) alerts++;
  }
  return alerts;
}
