import { env } from "../../config/env";
import { db } from "../../db/client";
import { formatAmount } from "../../protocol/amount";
import { alertThreshold } from "../alert-context";
import { enqueueAlert } from "../enqueue-alert";

/** The date and hour of an instant in ALERT_TIME_ZONE. */
function localTime(timeZone: string, at: Date): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "00";
  return { day: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
}

/**
 * Issue 25: once a day, at or after the chosen hour (daily_summary's number,
 * default 9, in ALERT_TIME_ZONE), the last 24 hours: orders, deliveries,
 * sales, refunds, top-ups, SKUs low on stock. The day is the dedupe key.
 * `now` is a parameter so a test that runs across midnight still asks about one day.
 */
export async function checkDailySummary(now: Date = new Date()): Promise<number> {
  const { day, hour } = localTime(env().ALERT_TIME_ZONE, now);
  if (hour < (await alertThreshold("daily_summary"))) return 0;
  const dedupeKey = `daily_summary:${day}`;
  if (await db().alertEvent.findUnique({ where: { dedupeKey }, select: { id: true } })) return 0;
  const [s] = await db().$queryRaw<
    { orders: number; delivered: number; sales: bigint; refunds: number; refunded: bigint; topups: bigint; low: number }[]
  >`
    SELECT
      (SELECT count(*)::int FROM "Order" WHERE "createdAt" > now() - interval '1 day') AS orders,
      (SELECT count(*)::int FROM "Order" WHERE "status" = 'delivered' AND "completedAt" > now() - interval '1 day') AS delivered,
      (SELECT COALESCE(sum("amountCents"), 0)::bigint FROM "Order" WHERE "status" = 'delivered' AND "completedAt" > now() - interval '1 day') AS sales,
      (SELECT count(*)::int FROM "PointsLedger" WHERE "orderId" IS NOT NULL AND "deltaCents" > 0 AND "createdAt" > now() - interval '1 day') AS refunds,
      (SELECT COALESCE(sum("deltaCents"), 0)::bigint FROM "PointsLedger" WHERE "orderId" IS NOT NULL AND "deltaCents" > 0 AND "createdAt" > now() - interval '1 day') AS refunded,
      (SELECT COALESCE(sum("deltaCents"), 0)::bigint FROM "PointsLedger" WHERE "orderId" IS NULL AND "deltaCents" > 0 AND "createdAt" > now() - interval '1 day') AS topups,
      (SELECT count(*)::int FROM "AlertCondition" WHERE "key" LIKE 'stock:%' AND "active") AS low`;
  const params = {
    day,
    orders: s.orders,
    delivered: s.delivered,
    sales: `${formatAmount(s.sales)} CNY`,
    refunds: s.refunds,
    refunded: `${formatAmount(s.refunded)} CNY`,
    topups: `${formatAmount(s.topups)} CNY`,
    lowStock: s.low,
  };
  return (await db().$transaction((tx) => enqueueAlert(tx, { kind: "daily_summary", dedupeKey, params }))) ? 1 : 0;
}
