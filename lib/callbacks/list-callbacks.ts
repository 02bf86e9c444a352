import { db } from "../db/client";
import type { CallbackStatus } from "../generated/prisma/enums";

/**
 * Callbacks for the administrator (D28: failed ones are shown and can be
 * resent with resendCallback). Newest first; plain JSON-able objects. The body
 * is not included: it holds card keys.
 */
export async function listCallbacks(opts: { status?: CallbackStatus; orderId?: number; limit?: number } = {}) {
  const rows = await db().callback.findMany({
    where: { status: opts.status, orderId: opts.orderId },
    orderBy: { id: "desc" },
    take: Math.min(Math.max(opts.limit ?? 100, 1), 1000),
    select: {
      id: true,
      orderId: true,
      url: true,
      status: true,
      attemptCount: true,
      lastError: true,
      nextAttemptAt: true,
      deliveredAt: true,
      createdAt: true,
      order: { select: { orderNo: true } },
    },
  });
  return rows.map((c) => ({
    id: c.id,
    orderId: c.orderId,
    orderNo: c.order.orderNo,
    url: c.url,
    status: c.status,
    attempts: c.attemptCount,
    lastError: c.lastError,
    nextAttemptAt: c.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: c.deliveredAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
  }));
}
