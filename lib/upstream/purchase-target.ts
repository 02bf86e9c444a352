import { db } from "../db/client";
import type { Tx } from "../db/tx";
import type { OrderStatus } from "../generated/prisma/enums";
import { SYSTEM_ACTOR } from "../audit/actor";
import { resolveClaimInTx } from "../after-sales/resolve-claim";

// What an upstream purchase buys for (split from purchase-outcomes.ts): an
// order, or (issue 26.3, decision 0059) a claim's replacement.

export type Purchase = NonNullable<Awaited<ReturnType<typeof loadPurchase>>>;

const ORDER_SELECT = {
  id: true,
  orderNo: true,
  status: true,
  manualFormData: true,
  items: {
    orderBy: { id: "asc" },
    select: {
      quantity: true,
      unitPriceCents: true,
      skuId: true,
      sku: {
        select: {
          upstreamMaxCostCents: true,
          product: { select: { deliveryFormat: true, deliveryDelimiter: true, upstreamManual: true, upstreamConnectionId: true } },
        },
      },
    },
  },
} as const;

/**
 * A purchase with the order it buys for. A claim's replacement (issue 26.3,
 * decision 0059) is seen as an order of ONE unit of the claimed order's SKU
 * at its unit price, "processing" while the claim is open: every rule here
 * and in run-purchase.ts applies to it unchanged.
 */
export async function loadPurchase(purchaseId: number) {
  const row = await db().upstreamPurchase.findUnique({
    where: { id: purchaseId },
    include: { order: { select: ORDER_SELECT }, claim: { select: { state: true, order: { select: ORDER_SELECT } } } },
  });
  if (!row) return null;
  const { order, claim, ...rest } = row;
  if (order) return { ...rest, order };
  if (!claim) return null;
  const status: OrderStatus = claim.state === "open" ? "processing" : "delivered";
  return { ...rest, order: { ...claim.order, status, items: claim.order.items.slice(0, 1).map((i) => ({ ...i, quantity: 1 })) } };
}

/** Locks what the purchase follows: its order, or for a claim's replacement the claimed order, then the claim (resolveClaim's order). */
export async function lockFollowed(tx: Tx, p: Purchase): Promise<OrderStatus> {
  const status = await lockOrder(tx, p.order.id);
  if (p.claimId === null) return status;
  const [claim] = await tx.$queryRaw<
    { state: string }[]
  >`SELECT "state"::text AS "state" FROM "AfterSalesClaim" WHERE "id" = ${p.claimId} FOR UPDATE`;
  return claim?.state === "open" ? "processing" : "delivered";
}

/** The bought line replaces the claimed one (resolveClaimInTx: line, audit row, order.updated callback, once). */
export async function resolveWithPurchase(tx: Tx, p: Purchase, line: string | undefined): Promise<void> {
  if (!line?.trim()) throw new Error(`purchase ${p.id} delivered no line`); // run-purchase's checks make this unreachable
  await resolveClaimInTx(tx, {
    claimId: p.claimId!,
    action: "replace",
    replacement: line,
    note: `bought from an upstream source (${p.downstreamOrderNo})`,
    actor: SYSTEM_ACTOR,
    purchaseId: p.id,
  });
}

async function lockOrder(tx: Tx, orderId: number): Promise<OrderStatus> {
  const [row] = await tx.$queryRaw<
    { status: OrderStatus }[]
  >`SELECT "status"::text AS "status" FROM "Order" WHERE "id" = ${orderId} FOR UPDATE`;
  return row.status;
}
