import { db } from "../db/client";

/** Headline numbers for the dashboard. */
export async function dashboardStats(now = new Date()) {
  const dayStart = new Date(now);
  dayStart.setHours(0, 0, 0, 0);
  const [ordersToday, salesToday, waitingManual, waitingReview, failedCallbacks, buyers] = await Promise.all([
    db().order.count({ where: { createdAt: { gte: dayStart } } }),
    db().order.aggregate({ where: { createdAt: { gte: dayStart }, status: { not: "failed" } }, _sum: { amountCents: true } }),
    db().order.count({ where: { status: "processing", items: { some: { sku: { product: { fulfillmentType: "manual" } } } } } }),
    db().order.count({ where: { status: "unknown_review" } }),
    db().callback.count({ where: { status: "failed" } }),
    db().user.count(),
  ]);
  return { ordersToday, salesTodayCents: salesToday._sum.amountCents ?? 0n, waitingManual, waitingReview, failedCallbacks, buyers };
}
