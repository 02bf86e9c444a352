import { db } from "../db/client";

/** A SKU at or below this many units (manual/upstream stock number, or available card keys for auto) is "low". */
export const LOW_STOCK_THRESHOLD = 5;

/** Headline numbers for the dashboard. */
export async function dashboardStats(now = new Date()) {
  const dayStart = new Date(now);
  dayStart.setHours(0, 0, 0, 0);
  const [ordersToday, salesToday, waitingManual, waitingReview, failedCallbacks, buyers, failedJobs] = await Promise.all([
    db().order.count({ where: { createdAt: { gte: dayStart } } }),
    db().order.aggregate({ where: { createdAt: { gte: dayStart }, status: { not: "failed" } }, _sum: { amountCents: true } }),
    db().order.count({ where: { status: "processing", items: { some: { sku: { product: { fulfillmentType: "manual" } } } } } }),
    db().order.count({ where: { status: "unknown_review" } }),
    db().callback.count({ where: { status: "failed" } }),
    db().user.count(),
    // graphile-worker keeps a job that used up its attempts (lib/jobs/list-jobs.ts "failed").
    db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE attempts >= max_attempts`,
  ]);
  return {
    ordersToday,
    salesTodayCents: salesToday._sum.amountCents ?? 0n,
    waitingManual,
    waitingReview,
    failedCallbacks,
    buyers,
    failedJobs: failedJobs[0]?.n ?? 0,
  };
}

/**
 * Orders and sales (not failed) per UTC day for the last `days` days, oldest
 * first, with empty days filled in, for the dashboard chart.
 */
export async function ordersPerDay(days = 14, now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = await db().$queryRaw<{ day: Date; orders: number; sales: bigint | null }[]>`
    SELECT date_trunc('day', "createdAt" AT TIME ZONE 'UTC') AS day, count(*)::int AS orders,
           sum(CASE WHEN "status" <> 'failed' THEN "amountCents" ELSE 0 END)::bigint AS sales
    FROM "Order" WHERE "createdAt" >= ${start}
    GROUP BY 1 ORDER BY 1`;
  const byDay = new Map(rows.map((r) => [new Date(r.day).toISOString().slice(0, 10), r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const r = byDay.get(day);
    return { day, orders: r?.orders ?? 0, salesCents: r?.sales ?? 0n };
  });
}

/** Active SKUs of active products at or below the threshold (unlimited stock never is), lowest first. */
export async function lowStockSkus(limit = 20) {
  return db().$queryRaw<{ skuId: number; skuCode: string; productId: number; title: unknown; stock: number }[]>`
    SELECT * FROM (
      SELECT s."id" AS "skuId", s."skuCode", p."id" AS "productId", p."title",
             (CASE WHEN p."fulfillmentType" = 'auto'
                   THEN (SELECT count(*) FROM "KeyStock" k WHERE k."skuId" = s."id")
                   ELSE s."stockQuantity" END)::int AS stock
      FROM "Sku" s JOIN "Product" p ON p."id" = s."productId"
      WHERE s."isActive" AND p."isActive" AND p."deletedAt" IS NULL
    ) x
    WHERE x.stock IS NOT NULL AND x.stock <= ${LOW_STOCK_THRESHOLD}
    ORDER BY x.stock, x."skuId"
    LIMIT ${limit}`;
}
