import { z } from "zod";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { consumeOnceToken } from "../audit/consume-once-token";
import { writeAuditLog } from "../audit/write-audit-log";
import { queueOrderCallback } from "../callbacks/queue-callback";
import type { ClaimState } from "../generated/prisma/enums";
import { AFTER_SALES_TX, applyRefund } from "./apply-refund";
import { CLAIM_SELECT, toClaimView, type ClaimView } from "./claim-view";
import { claimPurchase, refuseWhileBuying, replacementFromSources } from "./buy-replacement";
import { lockDeliveredOrder, replaceLine } from "./order-lines";
import { refuseReplaceBeyondAllowance } from "./replace-allowance";

export const CLAIM_ACTIONS = ["replace", "refund", "reject"] as const;
export type ClaimAction = (typeof CLAIM_ACTIONS)[number];

/** What the console form and `claim:resolve` send; the rule that a rejection says why lives here. */
export const ResolveClaimSchema = z
  .object({
    claimId: z.int().positive(),
    action: z.enum(CLAIM_ACTIONS),
    note: z.string().trim().max(200, "must be at most 200 characters").optional(),
    /** replace: the new line; without it one from the SKU's sources (buy-replacement.ts). */
    replacement: z.string().trim().max(10_000, "must be at most 10000 characters").optional(),
  })
  .refine((v) => v.action !== "reject" || !!v.note, { message: "a rejection needs a reason", path: ["note"] });
export type ResolveClaimInput = z.input<typeof ResolveClaimSchema> & {
  actor: Actor;
  onceToken?: string;
  /** Set by the upstream claim job: what our claim at the upstream became, stored with the resolution. */
  upstreamState?: string;
};

const STATE_OF: Record<ClaimAction, ClaimState> = { replace: "replaced", refund: "refunded", reject: "rejected" };

/**
 * Resolves an open claim once (issue 26.3/26.4), whoever asks first: an
 * administrator's click, `claim:resolve`, or the upstream's answer. The order
 * row is locked, then the claim: a second resolution waits, then finds the
 * claim no longer open and gets 409 claim_resolved, changing nothing.
 * - replace: a new line (given, else our next card key, else one bought from
 *   an upstream source of the SKU: buy-replacement.ts, resolved when the
 *   purchase delivers) at the same index of delivery_data; the old line
 *   stays in the claim, marked defective. Refused on an order refunded in
 *   full and beyond the product's replacements per line (issue 33.4,
 *   replace-allowance.ts);
 * - refund: the line's price back to the buyer through the ledger
 *   (applyRefund: never past what the order was paid);
 * - reject: with a reason the buyer sees.
 * The change, its ledger row, its audit row and the Profile U order.updated
 * callback commit together.
 */
export async function resolveClaim(input: ResolveClaimInput): Promise<ClaimView> {
  const parsed = ResolveClaimSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw appError("bad_request", `${issue.path.join(".") || "input"} ${issue.message}`);
  }
  return db().$transaction(async (tx) => {
    await consumeOnceToken(tx, input.onceToken, "claim.resolve");
    return resolveClaimInTx(tx, { ...parsed.data, actor: input.actor, upstreamState: input.upstreamState });
  }, AFTER_SALES_TX);
}

/**
 * The resolution inside the caller's transaction: resolveClaim's, and a
 * replacement purchase's when it delivers (`purchaseId`: that purchase may
 * resolve the claim it is buying for; nothing else may meanwhile, 409
 * claim_replacing). A replace without a line that starts a purchase
 * (buy-replacement.ts) returns the claim still open.
 */
export async function resolveClaimInTx(
  tx: Tx,
  input: z.output<typeof ResolveClaimSchema> & { actor: Actor; upstreamState?: string; purchaseId?: number },
): Promise<ClaimView> {
  const { claimId, action, note, replacement, actor } = input;
  const adminUserId = actor.kind === "admin" ? actor.id : undefined;
  const found = await tx.afterSalesClaim.findUnique({ where: { id: claimId }, select: { orderId: true } });
  if (!found) throw appError("claim_not_found", `claim ${claimId} not found`);
  const order = await lockDeliveredOrder(tx, found.orderId);
  if (!order) throw appError("claim_not_found", `claim ${claimId} not found`);
  const claim = await lockClaim(tx, claimId);
  if (claim.state !== "open") throw appError("claim_resolved", `claim ${claimId} is already ${claim.state}`);
  // The purchase resolving its own claim is the one thing allowed while it runs.
  const bought = input.purchaseId === undefined ? await claimPurchase(tx, claimId) : null;
  refuseWhileBuying(bought);

  let refundCents: bigint | null = null;
  if (action === "replace") {
    // A purchase resolving its claim always brings its line: it never starts another.
    if (input.purchaseId !== undefined && !replacement?.trim()) throw new Error("a purchase resolves a claim with its line");
    // The purchase was allowed when it started (and is paid for); every other replace is checked now.
    if (input.purchaseId === undefined) await refuseReplaceBeyondAllowance(tx, order, claim.line);
    const got = replacement?.trim() || (await replacementFromSources(tx, order, claimId, bought));
    if (typeof got !== "string") {
      await writeAuditLog(tx, {
        actor,
        action: "claim.replace_purchase",
        targetType: "order",
        targetId: order.orderNo,
        details: { claimId, line: claim.line, purchaseId: got.purchaseId, source: got.connectionName },
      });
      return toClaimView(await tx.afterSalesClaim.findUniqueOrThrow({ where: { id: claimId }, select: CLAIM_SELECT }));
    }
    await replaceLine(tx, order, claim.line, got);
  } else if (action === "refund") {
    const remaining = order.amountCents - order.refundedCents;
    refundCents = order.linePrices[claim.line] < remaining ? order.linePrices[claim.line] : remaining;
    if (refundCents <= 0n) throw appError("refund_exceeds_paid", `order ${order.orderNo} is refunded in full already`);
    await applyRefund(tx, { orderId: order.id, cents: refundCents, reason: `line ${claim.line} (claim #${claimId})`, adminUserId });
  }
  const resolvedBy = actor.kind === "admin" ? `admin #${actor.id}` : actor.kind;
  const row = await tx.afterSalesClaim.update({
    where: { id: claimId },
    data: {
      state: STATE_OF[action],
      refundCents,
      resolutionNote: note ?? null,
      resolvedBy,
      resolvedAt: new Date(),
      ...(input.upstreamState ? { upstreamState: input.upstreamState } : {}),
    },
    select: CLAIM_SELECT,
  });
  await writeAuditLog(tx, {
    actor,
    action: `claim.${action}`,
    targetType: "order",
    targetId: order.orderNo,
    details: {
      claimId,
      line: claim.line,
      ...(refundCents !== null ? { refundCents: refundCents.toString() } : {}),
      ...(note ? { note } : {}),
      ...(input.upstreamState ? { upstream: input.upstreamState } : {}),
    },
  });
  // Profile U: the order changed (a line or refunded_amount); the downstream hears it by order.updated.
  if (action !== "reject") await queueOrderCallback(tx, { orderId: order.id });
  return toClaimView(row);
}

async function lockClaim(tx: Tx, claimId: number) {
  const [claim] = await tx.$queryRaw<{ state: ClaimState; line: number }[]>`
    SELECT "state"::text AS "state", "line" FROM "AfterSalesClaim" WHERE "id" = ${claimId} FOR UPDATE`;
  return claim;
}
