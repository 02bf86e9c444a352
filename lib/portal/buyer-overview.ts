import { db } from "../db/client";
import { toLanguageText } from "../protocol/language";

/**
 * Issue 24.2: the portal's first page for one buyer: balance, member level,
 * orders and spend today and this month (China time, the shop's day, UTC+8),
 * orders in processing, and the last callbacks that failed.
 */
export async function getBuyerOverview({ userId, now = new Date() }: { userId: string; now?: Date }) {
  const shift = 8 * 3600_000;
  const local = new Date(now.getTime() + shift);
  const dayStart = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - shift);
  const monthStart = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - shift);
  const spend = (from: Date) =>
    db().order.aggregate({
      where: { userId, createdAt: { gte: from }, status: { not: "failed" } },
      _count: true,
      _sum: { amountCents: true },
    });
  const [user, today, month, processing, failedCallbacks, pendingTopUps] = await Promise.all([
    db().user.findUniqueOrThrow({
      where: { id: userId },
      select: { email: true, balanceCents: true, registrationPending: true, memberLevel: { select: { slug: true, name: true } } },
    }),
    spend(dayStart),
    spend(monthStart),
    db().order.count({ where: { userId, status: { in: ["processing", "unknown_review"] } } }),
    db().callback.findMany({
      where: { status: "failed", order: { userId } },
      orderBy: { id: "desc" },
      take: 5,
      select: { id: true, lastError: true, attemptCount: true, createdAt: true, order: { select: { orderNo: true } } },
    }),
    db().topUpRequest.count({ where: { userId, state: "pending" } }),
  ]);
  return {
    email: user.email,
    balanceCents: user.balanceCents,
    registrationPending: user.registrationPending,
    level: { slug: user.memberLevel.slug, name: toLanguageText(user.memberLevel.name) },
    today: { orders: today._count, spendCents: today._sum.amountCents ?? 0n },
    month: { orders: month._count, spendCents: month._sum.amountCents ?? 0n },
    processing,
    failedCallbacks,
    pendingTopUps,
  };
}
