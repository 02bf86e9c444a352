import { env } from "../config/env";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import type { OrderStatus } from "../generated/prisma/enums";
import { transitionOrder } from "../fulfilment/transition-order";
import { log } from "../log";
import { parseAmount } from "../protocol/amount";
import { clientFor, loadConnection, type LoadedConnection } from "./connection";
import { nextRunAt } from "./purchase-schedule";
import { enqueuePurchaseRun } from "./queue-purchase";
import { checkUpstreamDelivery } from "./check-upstream-delivery";
import { ceilingOf, hopOrderNo, sourceKey } from "./choose-source";
import { breakerAllows, recordCallOutcome } from "./circuit-breaker";
import { pickNextSource } from "./pick-next-source";
import { UpstreamError, type UpstreamCreateOrder, type UpstreamOrder } from "./upstream-client";

// Errors after which the upstream certainly holds no order for our number: it
// refused the create before storing anything (D18: a failed request leaves no
// record). Anything else (5xx, timeouts, 401, 409, 429) may be transient or
// may hide an order that was created: we repeat the same request until the
// deadline, then the order goes to review.
const DEFINITE_REFUSALS = new Set([
  "bad_request", "invalid_json", "points_disabled", "product_unavailable", "product_not_found",
  "sku_unavailable", "insufficient_stock", "insufficient_balance",
]);
// Issue 26.2: any other 4xx is a refusal too (the D7 checks run before
// anything is stored), except these, which may hide an order or pass.
const MAYBE_STORED_4XX = new Set([408, 409, 429]);

function isDefiniteRefusal(e: UpstreamError): boolean {
  const status = e.status ?? 0;
  if (e.kind !== "http" || status < 400 || status >= 500) return false;
  return (e.errorCode != null && DEFINITE_REFUSALS.has(e.errorCode)) || !MAYBE_STORED_4XX.has(status);
}

type Purchase = NonNullable<Awaited<ReturnType<typeof loadPurchase>>>;

function loadPurchase(purchaseId: number) {
  return db().upstreamPurchase.findUnique({
    where: { id: purchaseId },
    include: {
      order: {
        select: {
          id: true, orderNo: true, status: true, manualFormData: true,
          items: {
            orderBy: { id: "asc" },
            select: {
              quantity: true, unitPriceCents: true,
              skuId: true,
              sku: { select: { upstreamMaxCostCents: true, product: { select: { deliveryFormat: true, deliveryDelimiter: true } } } },
            },
          },
        },
      },
    },
  });
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
  const p = await loadPurchase(job.purchaseId);
  if (!p || p.status === "delivered" || p.status === "failed") return;
  // An administrator's re-check of an order in review (lib/upstream/recheck-upstream-purchase.ts):
  // ONE create-or-poll past the deadline; a final upstream answer resolves the
  // order, anything else leaves it in review (no new schedule).
  const recheck = job.recheck === true && p.status === "unknown" && p.order.status === "unknown_review";
  if (!recheck) {
    if (p.status === "unknown") return;
    if (p.order.status !== "processing") return; // an administrator resolved it (or it is in review)
    if (Date.now() >= p.deadlineAt.getTime()) return toReview(p, p.lastError ?? (p.upstreamOrderId === null ? "no answer from the upstream" : "the upstream order was still processing at the deadline"));
  }
  const scheduleNext = recheck ? stayInReview : scheduleNextRun;

  const conn = await loadConnection(p.connectionId);
  if (p.sentAt === null && !recheck) {
    // Issue 26.2: a hop never sent asks nothing of a connection whose breaker
    // is open (or whose one probe is out): nothing can exist there, so the
    // order moves on at once. Otherwise the hop is marked sent first, so that
    // after a crash it is never taken for an unsent one.
    if (conn.isEnabled && !(await breakerAllows(conn.id))) {
      return moveOn(p, { to: "failed", reason: "no upstream supplier could take the order", costCents: null, upstreamOrderId: null }, "skipped: the connection's circuit breaker is open");
    }
    const { count } = await db().upstreamPurchase.updateMany({ where: { id: p.id, hop: p.hop, sentAt: null }, data: { sentAt: new Date() } });
    if (count === 0) return; // a concurrent run moved this purchase on
  }
  let upstream: UpstreamOrder;
  try {
    if (!conn.isEnabled) throw new UpstreamError("network", "the upstream connection is disabled");
    const client = clientFor(conn);
    upstream = p.upstreamOrderId === null ? await client.createOrder(createBody(p, conn)) : await client.getOrder(p.upstreamOrderId);
  } catch (err) {
    const e = err instanceof UpstreamError ? err : new UpstreamError("invalid", "unexpected error calling the upstream");
    if (conn.isEnabled) await recordCallOutcome(conn.id, false);
    if (p.upstreamOrderId === null && isDefiniteRefusal(e)) {
      if (e.errorCode === "insufficient_stock") await noteSource(p, { lastStock: 0 });
      const failed = { to: "failed", reason: `the upstream supplier refused the order (${e.errorCode && DEFINITE_REFUSALS.has(e.errorCode) ? e.errorCode : `HTTP ${e.status}`})`, costCents: null, upstreamOrderId: null } as const;
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
  if (upstream.status === "failed") {
    // Issue 8.3: our words only; the upstream's error_message never reaches the buyer or the console.
    const failed = { to: "failed", reason: "the upstream supplier failed the order", costCents, upstreamOrderId: upstream.order_id } as const;
    return recheck ? finish(p, failed) : moveOn(p, failed);
  }
  return scheduleNext(p, null, upstream.order_id, costCents);
}

/** Issue 22.1: the delivery against the order (one item: its quantity, product format and the hop's cost ceiling, issue 26.1). */
async function checkDelivery(p: Purchase, upstream: UpstreamOrder, costCents: bigint | null) {
  const item = p.order.items[0];
  const source = p.sourceId === null ? null : await db().skuSource.findUnique({ where: { id: p.sourceId }, select: { maxCostCents: true } });
  return checkUpstreamDelivery({
    order: upstream, costCents,
    quantity: item.quantity,
    format: item.sku.product.deliveryFormat,
    delimiter: item.sku.product.deliveryDelimiter,
    maxUnitCostCents: ceilingOf({ maxCostCents: source?.maxCostCents ?? null }, item.sku.upstreamMaxCostCents, item.unitPriceCents),
  });
}

/** The create request: identical on every run (the upstream's idempotency digest, D18). */
function createBody(p: Purchase, conn: LoadedConnection): UpstreamCreateOrder {
  const form = (p.order.manualFormData ?? {}) as Record<string, unknown>;
  const callbackBase = env().UPSTREAM_CALLBACK_BASE_URL?.replace(/\/+$/, "");
  return {
    downstream_order_no: p.downstreamOrderNo,
    sku_id: p.upstreamSkuId,
    quantity: p.order.items[0]?.quantity ?? 1,
    trace_id: p.order.orderNo,
    // Profile U only: the upstream tells us of changes; the callback only triggers a poll.
    ...(conn.profile === "U" && callbackBase ? { callback_url: `${callbackBase}/api/upstream-callbacks/${conn.id}` } : {}),
    // The normalised form stored with our order (spec 4.5 rule 3).
    ...(conn.profile === "P" && Object.keys(form).length ? { manual_form_data: form } : {}),
  };
}

type Outcome =
  | { to: "delivered"; lines: string[]; costCents: bigint | null; upstreamOrderId: number }
  | { to: "failed"; reason: string; costCents: bigint | null; upstreamOrderId: number | null };

/** Our order follows the upstream's, in one transaction with the purchase row. */
async function finish(p: Purchase, outcome: Outcome, lastError: string | null = null): Promise<void> {
  await db().$transaction((tx) => finishIn(tx, p, outcome, lastError));
  log.info({ component: "upstream", purchaseId: p.id, orderId: p.order.id, outcome: outcome.to }, "upstream purchase finished");
}

async function finishIn(tx: Tx, p: Purchase, outcome: Outcome, lastError: string | null): Promise<void> {
  {
    const status = await lockOrder(tx, p.order.id);
    const data = {
      attemptCount: { increment: 1 }, lastError,
      ...(outcome.upstreamOrderId !== null ? { upstreamOrderId: outcome.upstreamOrderId } : {}),
      ...(outcome.costCents !== null ? { costCents: outcome.costCents } : {}),
    };
    if (status !== "processing" && status !== "unknown_review") {
      await tx.upstreamPurchase.update({ where: { id: p.id }, data: { ...data, status: outcome.to } });
      return;
    }
    if (outcome.to === "delivered") await transitionOrder(tx, p.order.id, { to: "delivered", lines: outcome.lines, source: "upstream" });
    else await transitionOrder(tx, p.order.id, { to: "failed", reason: outcome.reason, upstreamFailure: lastError ?? outcome.reason });
    await tx.upstreamPurchase.update({ where: { id: p.id }, data: { ...data, status: outcome.to } });
  }
}

/**
 * Issue 26.2: this hop failed for certain (refused, or the upstream failed
 * its order), so nothing is bought here and the order moves to the next
 * source at once, in one transaction: the hop left behind becomes a
 * PurchaseHop row, the purchase row becomes the new hop (its own number,
 * hop-order-no, the new connection's deadline) and its job is queued. No
 * source left → our order fails and is refunded, as with one source. The
 * guard on (hop, open status) makes a second run of the same step a no-op.
 */
async function moveOn(p: Purchase, failed: Extract<Outcome, { to: "failed" }>, lastError: string | null = null): Promise<void> {
  const moved = await db().$transaction(async (tx) => {
    const status = await lockOrder(tx, p.order.id);
    const current = await tx.upstreamPurchase.findUnique({ where: { id: p.id }, select: { hop: true, status: true } });
    if (!current || current.hop !== p.hop || (current.status !== "pending" && current.status !== "placed")) return null;
    if (status !== "processing") return finishIn(tx, p, failed, lastError).then(() => null);
    const before = await tx.purchaseHop.findMany({ where: { purchaseId: p.id }, select: { connectionId: true, upstreamSkuId: true, finishedAt: true }, orderBy: { hop: "asc" } });
    const tried = new Set([...before, p].map(sourceKey));
    const item = p.order.items[0];
    const next = await pickNextSource(tx, { skuId: item.skuId, quantity: item.quantity, unitPriceCents: item.unitPriceCents, tried });
    if (!next.ok) return finishIn(tx, p, failed, lastError).then(() => null);
    await tx.purchaseHop.create({
      data: {
        purchaseId: p.id, hop: p.hop, sourceId: p.sourceId, connectionId: p.connectionId, upstreamSkuId: p.upstreamSkuId,
        downstreamOrderNo: p.downstreamOrderNo, upstreamOrderId: failed.upstreamOrderId, costCents: failed.costCents, sentAt: p.sentAt,
        status: "failed", outcome: lastError ? `${failed.reason}: ${lastError}` : failed.reason,
        startedAt: before.at(-1)?.finishedAt ?? p.createdAt,
      },
    });
    const hop = p.hop + 1;
    const conn = await tx.upstreamConnection.findUniqueOrThrow({ where: { id: next.source.connectionId }, select: { maxWaitSeconds: true } });
    await tx.upstreamPurchase.update({
      where: { id: p.id },
      data: {
        hop, sourceId: next.source.id, connectionId: next.source.connectionId, upstreamSkuId: next.source.upstreamSkuId,
        downstreamOrderNo: hopOrderNo(p.order.orderNo, hop), upstreamOrderId: null, costCents: null,
        status: "pending", attemptCount: 0, lastError: null, sentAt: null, deadlineAt: new Date(Date.now() + conn.maxWaitSeconds * 1000),
      },
    });
    await enqueuePurchaseRun(tx, p.id);
    return { hop, connectionId: next.source.connectionId };
  });
  if (moved) log.info({ component: "upstream", purchaseId: p.id, orderId: p.order.id, ...moved }, "upstream purchase moved to the next source");
  else log.info({ component: "upstream", purchaseId: p.id, orderId: p.order.id, outcome: "failed" }, "upstream purchase finished");
}

/** What a hop taught us about its source (issue 26.1: the cheapest policy and the stock a downstream sees). */
async function noteSource(p: Purchase, data: { lastCostCents?: bigint; lastStock: number | null }): Promise<void> {
  if (p.sourceId !== null) await db().skuSource.updateMany({ where: { id: p.sourceId }, data });
}

/** Not finished yet: record what we know and schedule the next run (no later than the deadline). */
async function scheduleNextRun(p: Purchase, lastError: string | null, upstreamOrderId?: number, costCents?: bigint | null): Promise<void> {
  const runsDone = p.attemptCount + 1;
  if (Date.now() >= p.deadlineAt.getTime()) return toReview(p, lastError ?? "the upstream order is still processing", upstreamOrderId, costCents);
  await db().$transaction(async (tx) => {
    // Only while still open: a concurrent run (after a crash) may have finished it.
    const { count } = await tx.upstreamPurchase.updateMany({
      where: { id: p.id, status: { in: ["pending", "placed"] } },
      data: {
        attemptCount: runsDone, lastError,
        ...(upstreamOrderId !== undefined ? { upstreamOrderId, status: "placed" as const } : {}),
        ...(costCents != null ? { costCents } : {}),
      },
    });
    if (count === 1) await enqueuePurchaseRun(tx, p.id, nextRunAt(runsDone, p.deadlineAt));
  });
  if (lastError) log.warn({ component: "upstream", purchaseId: p.id, orderId: p.order.id, attempt: runsDone, error: lastError }, "upstream purchase not done; retry scheduled");
}

/** A re-check without a final answer: record it; the order stays in review for the administrator. */
async function stayInReview(p: Purchase, lastError: string | null, upstreamOrderId?: number, costCents?: bigint | null): Promise<void> {
  await db().upstreamPurchase.updateMany({
    where: { id: p.id, status: "unknown" },
    data: {
      attemptCount: { increment: 1 }, lastError: lastError ?? "the upstream order is still processing",
      ...(upstreamOrderId !== undefined ? { upstreamOrderId } : {}),
      ...(costCents != null ? { costCents } : {}),
    },
  });
  log.info({ component: "upstream", purchaseId: p.id, orderId: p.order.id }, "upstream re-check: no final answer; order stays in review");
}

/**
 * Internal review (public: processing): no answer within the connection's
 * maximum wait (D25), or a delivery that failed our checks (issue 22.1).
 */
async function toReview(p: Purchase, lastError: string, upstreamOrderId?: number, costCents?: bigint | null): Promise<void> {
  await db().$transaction(async (tx) => {
    const status = await lockOrder(tx, p.order.id);
    if (status !== "processing") return; // finished meanwhile (a concurrent run, or an administrator)
    await transitionOrder(tx, p.order.id, { to: "unknown_review" });
    await tx.upstreamPurchase.update({
      where: { id: p.id },
      data: {
        status: "unknown", attemptCount: { increment: 1 }, lastError,
        ...(upstreamOrderId !== undefined ? { upstreamOrderId } : {}),
        ...(costCents != null ? { costCents } : {}),
      },
    });
  });
  log.warn({ component: "upstream", purchaseId: p.id, orderId: p.order.id, error: lastError }, "upstream purchase moved to review");
}

async function lockOrder(tx: Tx, orderId: number): Promise<OrderStatus> {
  const [row] = await tx.$queryRaw<{ status: OrderStatus }[]>`SELECT "status"::text AS "status" FROM "Order" WHERE "id" = ${orderId} FOR UPDATE`;
  return row.status;
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
