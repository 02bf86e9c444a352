import { db } from "../db/client";
import { orderWhere, type OrderFilters } from "./order-filters";
import type { Paging } from "./paging";

export { ORDER_STATUSES } from "./order-filters";
export const ORDER_SORTS = ["createdAt", "amountCents", "orderNo", "status"] as const;

export interface ListOrdersInput extends OrderFilters {
  paging: Paging<(typeof ORDER_SORTS)[number]>;
}

/** One page of orders for the admin table. Selects no form data and no payloads. */
export async function listOrders({ paging, ...filters }: ListOrdersInput) {
  const where = orderWhere(filters);
  const [total, rows] = await Promise.all([
    db().order.count({ where }),
    db().order.findMany({
      where,
      orderBy: [{ [paging.sort]: paging.dir }, { id: paging.dir }],
      skip: paging.skip,
      take: paging.take,
      select: {
        id: true,
        orderNo: true,
        downstreamOrderNo: true,
        profile: true,
        status: true,
        amountCents: true,
        createdAt: true,
        user: { select: { email: true } },
        credential: { select: { apiKey: true } },
        items: { select: { title: true, quantity: true }, take: 1 },
      },
    }),
  ]);
  return { total, rows };
}
