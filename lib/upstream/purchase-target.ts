import { db } from "../db/client";
import type { Tx } from "../db/tx";
import type { OrderStatus } from "../generated/prisma/enums";

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

/** What a claim's replacement brought: lib/after-sales resolves the claim with it. */
export type ClaimReplacementBought = (
  tx: Tx,
  bought: { claimId: number; purchaseId: number; downstreamOrderNo: string; line: string },
) => Promise<void>;
let claimReplacementBought: ClaimReplacementBought | undefined;

/**
 * Issue 34.1: after-sales imports upstream, so upstream does not import it
 * back; its handler is registered by the worker's assembly
 * (lib/worker/task-list.ts), which runs every purchase. It runs in the
 * purchase's transaction, as before: the bought line is a card key, which no
 * job payload may carry.
 */
export function onClaimReplacementBought(handler: ClaimReplacementBought): void {
  claimReplacementBought = handler;
}

/** The bought line replaces the claimed one (after-sales' resolveClaimInTx: line, audit row, order.updated callback, once). */
export async function resolveWithPurchase(tx: Tx, p: Purchase, line: string | undefined): Promise<void> {
  if (!line?.trim()) throw new Error(`purchase ${p.id} delivered no line`); // run-purchase's checks make this unreachable
  // Unreachable in the worker; elsewhere the job fails and is retried, nothing is lost.
  if (!claimReplacementBought) throw new Error("no handler for a claim's replacement: lib/worker/task-list.ts registers it");
  await claimReplacementBought(tx, { claimId: p.claimId!, purchaseId: p.id, downstreamOrderNo: p.downstreamOrderNo, line });
}

async function lockOrder(tx: Tx, orderId: number): Promise<OrderStatus> {
  const [row] = await tx.$queryRaw<
    { status: OrderStatus }[]
  >`SELECT "status"::text AS "status" FROM "Order" WHERE "id" = ${orderId} FOR UPDATE`;
  return row.status;
}
