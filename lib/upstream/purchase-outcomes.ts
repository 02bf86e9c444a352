import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { transitionOrder } from "../fulfillment/transition-order";
import { log } from "../log";
import { nextRunAt } from "./purchase-schedule";
import { enqueuePurchaseRun } from "./queue-purchase";
import { purchaseHopOrderNo, sourceKey } from "./choose-source";
import { pickNextSource } from "./pick-next-source";
import { lockFollowed, resolveWithPurchase, type Purchase } from "./purchase-target";

export { loadPurchase, type Purchase } from "./purchase-target";

// The writers of an upstream purchase's outcome (split from run-purchase.ts,
// which decides; these record): our order follows the upstream's, a refused hop
// moves on to the next source (issue 26.2, decision 0042), an unknown outcome
// is retried with back-off or sent to review. Each in one transaction with the
// purchase row and its jobs.

export type Outcome =
  | { to: "delivered"; lines: string[]; costCents: bigint | null; upstreamOrderId: number }
  | { to: "failed"; reason: string; costCents: bigint | null; upstreamOrderId: number | null };

/** Our order follows the upstream's, in one transaction with the purchase row. */
export async function finish(p: Purchase, outcome: Outcome, lastError: string | null = null): Promise<void> {
  await db().$transaction((tx) => finishIn(tx, p, outcome, lastError));
  log.info({ component: "upstream", purchaseId: p.id, orderId: p.order.id, outcome: outcome.to }, "upstream purchase finished");
}

async function finishIn(tx: Tx, p: Purchase, outcome: Outcome, lastError: string | null): Promise<void> {
  {
    const status = await lockFollowed(tx, p);
    const data = {
      attemptCount: { increment: 1 },
      lastError,
      ...(outcome.upstreamOrderId !== null ? { upstreamOrderId: outcome.upstreamOrderId } : {}),
      ...(outcome.costCents !== null ? { costCents: outcome.costCents } : {}),
    };
    if (status !== "processing" && status !== "unknown_review") {
      await tx.upstreamPurchase.update({ where: { id: p.id }, data: { ...data, status: outcome.to } });
      return;
    }
    if (p.claimId !== null) {
      // Issue 26.3: the claim resolves as a replace does, with the bought line; a refusal leaves it open (its view says so).
      if (outcome.to === "delivered") await resolveWithPurchase(tx, p, outcome.lines[0]);
    } else if (outcome.to === "delivered")
      await transitionOrder(tx, p.order.id, { to: "delivered", lines: outcome.lines, source: "upstream" });
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
export async function moveOn(p: Purchase, failed: Extract<Outcome, { to: "failed" }>, lastError: string | null = null): Promise<void> {
  const moved = await db().$transaction(async (tx) => {
    const status = await lockFollowed(tx, p);
    const current = await tx.upstreamPurchase.findUnique({ where: { id: p.id }, select: { hop: true, status: true } });
    if (!current || current.hop !== p.hop || (current.status !== "pending" && current.status !== "placed")) return null;
    if (status !== "processing") return finishIn(tx, p, failed, lastError).then(() => null);
    const before = await tx.purchaseHop.findMany({
      where: { purchaseId: p.id },
      select: { connectionId: true, upstreamSkuId: true, finishedAt: true },
      orderBy: { hop: "asc" },
    });
    const tried = new Set([...before, p].map(sourceKey));
    const item = p.order.items[0];
    const next = await pickNextSource(tx, { skuId: item.skuId, quantity: item.quantity, unitPriceCents: item.unitPriceCents, tried });
    if (!next.ok) return finishIn(tx, p, failed, lastError).then(() => null);
    await tx.purchaseHop.create({
      data: {
        purchaseId: p.id,
        hop: p.hop,
        sourceId: p.sourceId,
        connectionId: p.connectionId,
        upstreamSkuId: p.upstreamSkuId,
        downstreamOrderNo: p.downstreamOrderNo,
        upstreamOrderId: failed.upstreamOrderId,
        costCents: failed.costCents,
        sentAt: p.sentAt,
        status: "failed",
        outcome: lastError ? `${failed.reason}: ${lastError}` : failed.reason,
        startedAt: before.at(-1)?.finishedAt ?? p.createdAt,
      },
    });
    const hop = p.hop + 1;
    const conn = await tx.upstreamConnection.findUniqueOrThrow({
      where: { id: next.source.connectionId },
      select: { maxWaitSeconds: true },
    });
    await tx.upstreamPurchase.update({
      where: { id: p.id },
      data: {
        hop,
        sourceId: next.source.id,
        connectionId: next.source.connectionId,
        upstreamSkuId: next.source.upstreamSkuId,
        downstreamOrderNo: purchaseHopOrderNo(p, hop),
        upstreamOrderId: null,
        costCents: null,
        status: "pending",
        attemptCount: 0,
        lastError: null,
        sentAt: null,
        deadlineAt: new Date(Date.now() + conn.maxWaitSeconds * 1000),
      },
    });
    await enqueuePurchaseRun(tx, p.id);
    return { hop, connectionId: next.source.connectionId };
  });
  if (moved)
    log.info({ component: "upstream", purchaseId: p.id, orderId: p.order.id, ...moved }, "upstream purchase moved to the next source");
  else log.info({ component: "upstream", purchaseId: p.id, orderId: p.order.id, outcome: "failed" }, "upstream purchase finished");
}

/** What a hop taught us about its source (issue 26.1: the cheapest policy and the stock a downstream sees). */
export async function noteSource(p: Purchase, data: { lastCostCents?: bigint; lastStock: number | null }): Promise<void> {
  if (p.sourceId !== null) await db().skuSource.updateMany({ where: { id: p.sourceId }, data });
}

/** Not finished yet: record what we know and schedule the next run (no later than the deadline). */
export async function scheduleNextRun(
  p: Purchase,
  lastError: string | null,
  upstreamOrderId?: number,
  costCents?: bigint | null,
): Promise<void> {
  const runsDone = p.attemptCount + 1;
  if (Date.now() >= p.deadlineAt.getTime())
    return toReview(p, lastError ?? "the upstream order is still processing", upstreamOrderId, costCents);
  await db().$transaction(async (tx) => {
    // Only while still open: a concurrent run (after a crash) may have finished it.
    const { count } = await tx.upstreamPurchase.updateMany({
      where: { id: p.id, status: { in: ["pending", "placed"] } },
      data: {
        attemptCount: runsDone,
        lastError,
        ...(upstreamOrderId !== undefined ? { upstreamOrderId, status: "placed" as const } : {}),
        ...(costCents != null ? { costCents } : {}),
      },
    });
    if (count === 1) await enqueuePurchaseRun(tx, p.id, nextRunAt(runsDone, p.deadlineAt));
  });
  if (lastError)
    log.warn(
      { component: "upstream", purchaseId: p.id, orderId: p.order.id, attempt: runsDone, error: lastError },
      "upstream purchase not done; retry scheduled",
    );
}

/** A re-check without a final answer: record it; the order stays in review for the administrator. */
export async function stayInReview(
  p: Purchase,
  lastError: string | null,
  upstreamOrderId?: number,
  costCents?: bigint | null,
): Promise<void> {
  await db().upstreamPurchase.updateMany({
    where: { id: p.id, status: "unknown" },
    data: {
      attemptCount: { increment: 1 },
      lastError: lastError ?? "the upstream order is still processing",
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
export async function toReview(p: Purchase, lastError: string, upstreamOrderId?: number, costCents?: bigint | null): Promise<void> {
  await db().$transaction(async (tx) => {
    const status = await lockFollowed(tx, p);
    if (status !== "processing") return; // finished meanwhile (a concurrent run, or an administrator)
    // A claim's replacement in review leaves the claim open for the administrator (the claim's view shows it).
    if (p.claimId === null) await transitionOrder(tx, p.order.id, { to: "unknown_review" });
    await tx.upstreamPurchase.update({
      where: { id: p.id },
      data: {
        status: "unknown",
        attemptCount: { increment: 1 },
        lastError,
        ...(upstreamOrderId !== undefined ? { upstreamOrderId } : {}),
        ...(costCents != null ? { costCents } : {}),
      },
    });
  });
  log.warn({ component: "upstream", purchaseId: p.id, orderId: p.order.id, error: lastError }, "upstream purchase moved to review");
}
