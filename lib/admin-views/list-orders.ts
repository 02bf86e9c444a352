import { db } from "../db/client";
import type { OrderStatus } from "../generated/prisma/enums";
import type { Paging } from "./paging";

export const ORDER_SORTS = ["createdAt", "amountCents", "orderNo", "status"] as const;
export const ORDER_STATUSES = ["processing", "unknown_review", "delivered", "failed"] as const;

export interface ListOrdersInput {
  paging: Paging<(typeof ORDER_SORTS)[number]>;
  status?: OrderStatus;
  /** Exact order no. or downstream order no. (prefix match on both). */
  q?: string;
}

/** One page of orders for the admin table. Selects no form data and no payloads. */
export async function listOrders({ paging, status, q }: ListOrdersInput) {
  const search = q?.trim();
  const where = {
    ...(status ? { status } : {}),
    ...(search ? { OR: [{ orderNo: { startsWith: search } }, { downstreamOrderNo: { startsWith: search } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    db().order.count({ where }),
    db().order.findMany({
      where,
      orderBy: [{ [paging.sort]: paging.dir }, { id: paging.dir }],
      skip: paging.skip,
      take: paging.take,
      select: {
        id: true, orderNo: true, downstreamOrderNo: true, profile: true, status: true, amountCents: true, createdAt: true,
        user: { select: { email: true } },
        items: { select: { title: true, quantity: true }, take: 1 },
      },
    }),
  ]);
  return { total, rows };
}
