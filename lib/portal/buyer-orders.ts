import { z } from "zod";
import { db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { OrderStatus } from "../generated/prisma/enums";
import { assertApprovedBuyer } from "../buyer-access/approved-buyer";

// Issue 24.2-24.3: a buyer's orders, always under `userId` (the signed-in
// buyer), here in the service, never filtered by a page. unknown_review is
// shown as `processing`, as the API reports it (spec 2.5).

export const PUBLIC_STATUSES = ["processing", "delivered", "failed"] as const;
export type PublicStatus = (typeof PUBLIC_STATUSES)[number];
export const publicStatus = (s: OrderStatus): PublicStatus => (s === "unknown_review" ? "processing" : s);

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .transform((s) => new Date(`${s}T00:00:00Z`))
  .refine((d) => !Number.isNaN(d.getTime()));

/** The orders filter as the page's query string carries it; a bad value is ignored, not an error. */
export const BuyerOrderFilterSchema = z.object({
  status: z.enum(PUBLIC_STATUSES).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  downstream: z.string().trim().max(128).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
});
export type BuyerOrderFilter = z.output<typeof BuyerOrderFilterSchema>;

export const ORDERS_PAGE_SIZE = 20;
/** A CSV export holds at most this many orders (the newest of the filter). */
export const ORDERS_EXPORT_MAX = 10_000;

function whereOf(userId: string, f: BuyerOrderFilter): Prisma.OrderWhereInput {
  const where: Prisma.OrderWhereInput = { userId };
  if (f.status) where.status = f.status === "processing" ? { in: ["processing", "unknown_review"] } : f.status;
  if (f.from || f.to)
    where.createdAt = { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: new Date(f.to.getTime() + 86_400_000) } : {}) };
  if (f.downstream) where.downstreamOrderNo = { contains: f.downstream };
  return where;
}

/** One page of the buyer's orders, newest first (or up to ORDERS_EXPORT_MAX for an export). */
export async function listBuyerOrders({ userId, filter, all = false }: { userId: string; filter: BuyerOrderFilter; all?: boolean }) {
  await assertApprovedBuyer(userId); // issue 33.3
  const where = whereOf(userId, filter);
  const [total, rows] = await Promise.all([
    db().order.count({ where }),
    db().order.findMany({
      where,
      orderBy: { id: "desc" },
      skip: all ? 0 : (filter.page - 1) * ORDERS_PAGE_SIZE,
      take: all ? ORDERS_EXPORT_MAX : ORDERS_PAGE_SIZE,
      select: {
        id: true,
        orderNo: true,
        downstreamOrderNo: true,
        status: true,
        amountCents: true,
        createdAt: true,
        completedAt: true,
        profile: true,
        credential: { select: { apiKey: true } },
        items: { select: { title: true, quantity: true, sku: { select: { skuCode: true } } } },
      },
    }),
  ]);
  return { total, rows: rows.map((r) => ({ ...r, status: publicStatus(r.status) })) };
}

/** One order of this buyer with items, history and callback attempts; null for a missing order and another buyer's alike. */
export async function getBuyerOrder({ userId, orderNo }: { userId: string; orderNo: string }) {
  await assertApprovedBuyer(userId); // issue 33.3
  if (orderNo.length > 64) return null;
  const order = await db().order.findFirst({
    where: { orderNo, userId },
    select: {
      id: true,
      orderNo: true,
      downstreamOrderNo: true,
      status: true,
      amountCents: true,
      errorMessage: true,
      createdAt: true,
      completedAt: true,
      profile: true,
      callbackUrl: true,
      credential: { select: { apiKey: true } },
      items: { select: { title: true, quantity: true, unitPriceCents: true, totalPriceCents: true, sku: { select: { skuCode: true } } } },
      fulfillment: { select: { deliveryFormat: true, createdAt: true } },
      ledger: { select: { id: true, deltaCents: true, createdAt: true, reason: true }, orderBy: { id: "asc" } },
      callbacks: {
        select: {
          id: true,
          url: true,
          status: true,
          attempts: { select: { id: true, httpStatus: true, error: true, durationMs: true, createdAt: true }, orderBy: { id: "asc" } },
        },
        orderBy: { id: "asc" },
      },
    },
  });
  if (!order) return null;
  // The history a buyer can see: placed (and paid), then the final state. A review is internal (reported as processing).
  const history: { at: Date; status: PublicStatus | "refunded" }[] = [{ at: order.createdAt, status: "processing" }];
  if (order.completedAt && order.status !== "processing" && order.status !== "unknown_review")
    history.push({ at: order.completedAt, status: order.status });
  for (const l of order.ledger) if (l.deltaCents > 0n) history.push({ at: l.createdAt, status: "refunded" });
  return { ...order, status: publicStatus(order.status), history };
}
