// The rules every fulfiller call on one order shares (issue 39): which orders
// a token may touch (scope), that the order still waits, and that the caller
// holds its live lease. Times are the database's (now() in UTC), so every
// instance judges a lease by the same clock.
import { Prisma } from "../generated/prisma/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import type { FulfillerToken } from "./fulfiller-token";
import { onceByKey, type KeyedRequest } from "./once-by-key";

/** SQL: the product `p` is manual and in the token's scope. */
export const inScope = (token: FulfillerToken) =>
  Prisma.sql`p."fulfillmentType" = 'manual' AND (cardinality(${token.productIds}::int[]) = 0 OR p."id" = ANY(${token.productIds}::int[]))`;

/** SQL: the database's now, as the UTC timestamps Prisma stores. */
export const DB_NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

/**
 * The order if the token may touch it, else 404 (another scope and a missing
 * order answer alike). Its row is locked first, as transitionOrder locks it:
 * a claim racing a delivery waits and then sees the delivered status (never a
 * lease on a finished order), and every call locks order before lease (no deadlock).
 */
export async function scopedOrder(
  tx: Tx,
  token: FulfillerToken,
  orderNo: string,
): Promise<{ id: number; orderNo: string; status: string }> {
  const [order] = await tx.$queryRaw<{ id: number; orderNo: string; status: string }[]>`
    SELECT o."id", o."orderNo", o."status"::text AS "status" FROM "Order" o
    WHERE o."orderNo" = ${orderNo}
      AND EXISTS (SELECT 1 FROM "OrderItem" oi JOIN "Product" p ON p."id" = oi."productId" WHERE oi."orderId" = o."id" AND ${inScope(token)})
    FOR UPDATE OF o`;
  if (!order) throw appError("order_not_found", `order ${orderNo} not found`);
  return order;
}

/** 409 unless the order still waits for its delivery. */
export function assertWaiting(order: { orderNo: string; status: string }): void {
  if (order.status === "processing") return;
  if (order.status === "delivered" || order.status === "failed")
    throw appError("order_final", `order ${order.orderNo} is already ${order.status}`);
  throw appError("invalid_transition", `order ${order.orderNo} is ${order.status}, not waiting for a delivery`);
}

/** Locks the order's lease and checks it is this token's and live, else 409 lease_required. */
export async function holdLiveLease(tx: Tx, token: FulfillerToken, order: { id: number; orderNo: string }): Promise<void> {
  const [lease] = await tx.$queryRaw<{ tokenId: number; live: boolean }[]>`
    SELECT "tokenId", "leaseUntil" > ${DB_NOW} AS "live" FROM "FulfillerLease" WHERE "orderId" = ${order.id} FOR UPDATE`;
  if (!lease || lease.tokenId !== token.id || !lease.live)
    throw appError("lease_required", `order ${order.orderNo} is not leased by this token: claim it first`);
}

export type OrderCall = { token: FulfillerToken; orderNo: string } & KeyedRequest;

/** Runs `run` once per Idempotency-Key on a waiting order in the token's scope, its row locked. */
export function onWaitingOrder<T extends object>(call: OrderCall, run: (tx: Tx, order: { id: number; orderNo: string }) => Promise<T>) {
  return onceByKey(call.token, call, async (tx) => {
    const order = await scopedOrder(tx, call.token, call.orderNo);
    assertWaiting(order);
    return run(tx, order);
  });
}

/** onWaitingOrder for deliver and fail: this token's live lease is required, and released with the change. */
export function onLeasedOrder<T extends object>(call: OrderCall, run: (tx: Tx, order: { id: number; orderNo: string }) => Promise<T>) {
  return onWaitingOrder(call, async (tx, order) => {
    await holdLiveLease(tx, call.token, order);
    const answer = await run(tx, order);
    await tx.fulfillerLease.delete({ where: { orderId: order.id } });
    return answer;
  });
}
