import type { Tx } from "../db/tx";
import { formatAmount } from "../protocol/amount";
import { enqueueAlert } from "./enqueue-alert";

// Issue 25: the one-line hooks that services call inside the transaction of
// their state change. Each reads what its message needs (order number and
// amount, names, hosts: never a secret) and records the alert with a dedupe
// key naming that change.

async function orderFacts(tx: Tx, orderId: number) {
  const o = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { orderNo: true, amountCents: true } });
  return { orderNo: o.orderNo, amount: `${formatAmount(o.amountCents)} CNY` };
}

/** The order entered review (unknown_review); once per order. */
export async function alertOrderReview(tx: Tx, orderId: number): Promise<void> {
  await enqueueAlert(tx, { kind: "order_review", dedupeKey: `order_review:${orderId}`, params: await orderFacts(tx, orderId) });
}

/** An upstream purchase failed for good and the order was refunded; once per order. */
export async function alertUpstreamPurchaseFailed(tx: Tx, orderId: number, reason: string): Promise<void> {
  const purchase = await tx.upstreamPurchase.findUnique({ where: { orderId }, select: { connection: { select: { name: true } } } });
  const upstreamName = purchase?.connection.name ?? "-";
  await enqueueAlert(tx, {
    kind: "upstream_purchase_failed",
    dedupeKey: `upstream_purchase_failed:${orderId}`,
    params: { ...(await orderFacts(tx, orderId)), upstream: upstreamName, reason: reason.slice(0, 200) },
  });
}

/** An order callback gave up after its last attempt; once per callback. */
export async function alertCallbackGaveUp(tx: Tx, callbackId: number, attempts: number): Promise<void> {
  const cb = await tx.callback.findUniqueOrThrow({
    where: { id: callbackId },
    select: { url: true, order: { select: { id: true, credential: { select: { apiKey: true } } } } },
  });
  await enqueueAlert(tx, {
    kind: "callback_gave_up",
    dedupeKey: `callback_gave_up:${callbackId}`,
    params: { ...(await orderFacts(tx, cb.order.id)), apiKey: cb.order.credential.apiKey, host: hostOf(cb.url), attempts },
  });
}

/** A catalogue event gave up after its last attempt; once per event. */
export async function alertCatalogEventGaveUp(tx: Tx, eventId: number, attempts: number): Promise<void> {
  const ev = await tx.catalogEvent.findUniqueOrThrow({
    where: { id: eventId },
    select: { url: true, credential: { select: { apiKey: true } } },
  });
  await enqueueAlert(tx, {
    kind: "catalog_event_gave_up",
    dedupeKey: `catalog_event_gave_up:${eventId}`,
    params: { eventId, apiKey: ev.credential.apiKey, host: hostOf(ev.url), attempts },
  });
}

/**
 * A buyer's top-up request arrived (the buyer portal, issue 24): call in the
 * transaction that stores the request. Amount in fen.
 */
export async function alertTopUpRequest(
  tx: Tx,
  input: { requestId: string | number; buyerEmail: string; amountCents: bigint },
): Promise<void> {
  await enqueueAlert(tx, {
    kind: "topup_request",
    dedupeKey: `topup_request:${input.requestId}`,
    params: { requestId: String(input.requestId), buyer: input.buyerEmail, amount: `${formatAmount(input.amountCents)} CNY` },
  });
}

/** Host only: a URL's path or query may carry the receiver's token. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "invalid";
  }
}
