import { db } from "../db/client";
import { parseAmount } from "../protocol/amount";
import { clientFor, loadConnection, upstreamCallbackUrl, type LoadedConnection } from "./connection";
import { checkUpstreamDelivery } from "./check-upstream-delivery";
import { ceilingOf } from "./choose-source";
import { breakerAllows, recordCallOutcome } from "./circuit-breaker";
import { UpstreamError, type UpstreamCreateOrder, type UpstreamOrder } from "./upstream-client";
import { withPurchaseLease } from "./purchase-lease";
import { finish, loadPurchase, moveOn, noteSource, scheduleNextRun, stayInReview, toReview, type Purchase } from "./purchase-outcomes";

// Errors after which the upstream certainly holds no order for our number: it
// refused the create before storing anything (D18: a failed request leaves no
// record). Anything else (5xx, timeouts, 401, 409, 429) may be transient or
// may hide an order that was created: we repeat the same request until the
// deadline, then the order goes to review.
const DEFINITE_REFUSALS = new Set([
  "bad_request",
  "invalid_json",
  "points_disabled",
  "product_unavailable",
  "product_not_found",
  "sku_unavailable",
  "insufficient_stock",
  "insufficient_balance",
]);
// Issue 26.2: any other 4xx is a refusal too (the D7 checks run before
// anything is stored), except these, which may hide an order or pass.
const MAYBE_STORED_4XX = new Set([408, 409, 429]);

function isDefiniteRefusal(e: UpstreamError): boolean {
  const status = e.status ?? 0;
  if (e.kind !== "http" || status < 400 || status >= 500) return false;
  return (e.errorCode != null && DEFINITE_REFUSALS.has(e.errorCode)) || !MAYBE_STORED_4XX.has(status);
}

/**
 * Job handler of "upstream:purchase": one step of buying an `upstream` order
 * from its supplier. Without an upstream order id it sends the create (same
 * downstream_order_no and body on every run, so a lost response or a 409 is
 * resolved by repeating it); with one it reads the upstream order. Delivered
 * upstream → our order delivered with the upstream lines (source upstream,
 * D21) once the delivery passes our checks (issue 22.1), else to review;
 * failed upstream or a definite refusal → our order failed and refunded
 * (D22); still processing or no answer → the next run is scheduled with
 * back-off; past the deadline (D25) → our order to unknown_review. Idempotent:
 * a finished purchase or an order no longer processing ends the work.
 */
export async function runPurchaseJob(job: { purchaseId: number; recheck?: boolean }): Promise<void> {
  // Issue 37.3: one run at a time calls the upstream for a purchase (never two creates of one number at once).
  await withPurchaseLease(job.purchaseId, () => runPurchaseStep(job));
}

async function runPurchaseStep(job: { purchaseId: number; recheck?: boolean }): Promise<void> {
  const p = await loadPurchase(job.purchaseId);
  if (!p || p.status === "delivered" || p.status === "failed") return;
  // An administrator's re-check of an order in review (lib/upstream/recheck-upstream-purchase.ts):
  // ONE create-or-poll past the deadline; a final upstream answer resolves the
  // order, anything else leaves it in review (no new schedule).
  const recheck = job.recheck === true && p.status === "unknown" && p.order.status === "unknown_review";
  if (!recheck) {
    if (p.status === "unknown") return;
    if (p.order.status !== "processing") return; // an administrator resolved it (or it is in review)
    if (Date.now() >= p.deadlineAt.getTime())
      return toReview(
        p,
        p.lastError ??
          (p.upstreamOrderId === null ? "no answer from the upstream" : "the upstream order was still processing at the deadline"),
      );
  }
  const scheduleNext = recheck ? stayInReview : scheduleNextRun;

  const conn = await loadConnection(p.connectionId);
  if (p.sentAt === null && !recheck) {
    // Issue 26.2: a hop never sent asks nothing of a connection whose breaker
    // is open (or whose one probe is out): nothing can exist there, so the
    // order moves on at once. Otherwise the hop is marked sent first, so that
    // after a crash it is never taken for an unsent one.
    if (conn.isEnabled && !(await breakerAllows(conn.id))) {
      return moveOn(
        p,
        { to: "failed", reason: "no upstream supplier could take the order", costCents: null, upstreamOrderId: null },
        "skipped: the connection's circuit breaker is open",
      );
    }
    const { count } = await db().upstreamPurchase.updateMany({
      where: { id: p.id, hop: p.hop, sentAt: null },
      data: { sentAt: new Date() },
    });
    if (count === 0) return; // a concurrent run moved this purchase on
  }
  let upstream: UpstreamOrder;
  try {
    if (!conn.isEnabled) throw new UpstreamError("network", "the upstream connection is disabled");
    const client = clientFor(conn);
    upstream =
      p.upstreamOrderId === null
        ? await client.createOrder(createBody(p, conn))
        : await client.getOrder(p.upstreamOrderId, p.downstreamOrderNo);
  } catch (err) {
    const e = err instanceof UpstreamError ? err : new UpstreamError("invalid", "unexpected error calling the upstream");
    if (conn.isEnabled) await recordCallOutcome(conn.id, false);
    if (p.upstreamOrderId === null && isDefiniteRefusal(e)) {
      if (e.errorCode === "insufficient_stock") await noteSource(p, { lastStock: 0 });
      const failed = {
        to: "failed",
        reason: `the upstream supplier refused the order (${e.errorCode && DEFINITE_REFUSALS.has(e.errorCode) ? e.errorCode : `HTTP ${e.status}`})`,
        costCents: null,
        upstreamOrderId: null,
      } as const;
      // Issue 26.2: nothing was bought at this source, so the next one may be tried at once.
      return recheck ? finish(p, failed, e.message) : moveOn(p, failed, e.message);
    }
    return scheduleNext(p, e.message);
  }
  await recordCallOutcome(conn.id, upstream.status !== "failed");

  if (upstream.downstream_order_no !== p.downstreamOrderNo) return scheduleNext(p, "the upstream answered with another order");
  const costCents = safeAmount(upstream.amount);
  if (upstream.status === "delivered") {
    // Issue 22.1: a short, blank, unstorable or too costly delivery is not accepted: review, nothing stored.
    const checked = await checkDelivery(p, upstream, costCents);
    if (checked.ok) {
      if (costCents !== null) await noteSource(p, { lastCostCents: costCents / BigInt(p.order.items[0].quantity), lastStock: null });
      return finish(p, { to: "delivered", lines: checked.lines, costCents, upstreamOrderId: upstream.order_id });
    }
    return (recheck ? stayInReview : toReview)(p, checked.reason, upstream.order_id, costCents);
  }
  if (upstream.status === "partially_refunded") {
    // Issue 37.3: a Dujiao-Next supplier refunded part of the order: neither delivered nor failed; an administrator decides.
    return (recheck ? stayInReview : toReview)(p, "the upstream supplier partly refunded the order", upstream.order_id, costCents);
  }
  if (upstream.status === "failed") {
    // Issue 8.3: our words only; the upstream's error_message never reaches the buyer or the console.
    const failed = {
      to: "failed",
      reason: "the upstream supplier failed the order",
      costCents,
      upstreamOrderId: upstream.order_id,
    } as const;
    return recheck ? finish(p, failed) : moveOn(p, failed);
  }
  return scheduleNext(p, null, upstream.order_id, costCents);
}

/** Issue 22.1: the delivery against the order (one item: its quantity, product format and the hop's cost ceiling, issue 26.1). */
async function checkDelivery(p: Purchase, upstream: UpstreamOrder, costCents: bigint | null) {
  const item = p.order.items[0];
  const source =
    p.sourceId === null ? null : await db().skuSource.findUnique({ where: { id: p.sourceId }, select: { maxCostCents: true } });
  return checkUpstreamDelivery({
    order: upstream,
    costCents,
    quantity: item.quantity,
    // Decision 0052: a manual product of this purchase's upstream is delivered as a text, not one key per unit.
    manual: item.sku.product.upstreamManual && item.sku.product.upstreamConnectionId === p.connectionId,
    format: item.sku.product.deliveryFormat,
    delimiter: item.sku.product.deliveryDelimiter,
    maxUnitCostCents: ceilingOf({ maxCostCents: source?.maxCostCents ?? null }, item.sku.upstreamMaxCostCents, item.unitPriceCents),
  });
}

/** The create request: identical on every run (the upstream's idempotency digest, D18). */
function createBody(p: Purchase, conn: LoadedConnection): UpstreamCreateOrder {
  const form = (p.order.manualFormData ?? {}) as Record<string, unknown>;
  const callbackUrl = upstreamCallbackUrl(conn.id);
  const dujiao = conn.protocol === "dujiao_next";
  return {
    downstream_order_no: p.downstreamOrderNo,
    sku_id: p.upstreamSkuId,
    quantity: p.order.items[0]?.quantity ?? 1,
    trace_id: p.order.orderNo,
    // Profile U (and a Dujiao-Next supplier, issue 37.3) only: the upstream tells us of changes; the callback only triggers a poll.
    ...((conn.profile === "U" || dujiao) && callbackUrl ? { callback_url: callbackUrl } : {}),
    // The normalised form stored with our order (spec 4.5 rule 3).
    ...((conn.profile === "P" || dujiao) && Object.keys(form).length ? { manual_form_data: form } : {}),
  };
}

/** The upstream's charge, when it is a plain amount of at least zero (a negative cost is not a cost we know). */
function safeAmount(text: string): bigint | null {
  try {
    const cents = parseAmount(text);
    return cents >= 0n ? cents : null;
  } catch {
    return null;
  }
}
