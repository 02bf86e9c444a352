import { beforeAll, describe, expect, it } from "vitest";
import { adminActor, CLI_ACTOR, SYSTEM_ACTOR } from "../audit/actor";
import { AlreadyDoneError, newOnceToken } from "../audit/consume-once-token";
import { createAdmin } from "../admins/create-admin";
import { db } from "../db/client";
import { AppError } from "../errors";
import { createOrder } from "../orders/create-order";
import { getOrder } from "../orders/get-order";
import { reconcilePoints } from "../points/reconcile-points";
import { orderReadWire } from "../serializers/order";
import { expectError } from "../testing/expect-error";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { balanceOf, ledgerSum } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { listClaims, listOrderClaims } from "./list-claims";
import { openClaim } from "./open-claim";
import { refundOrderPart } from "./refund-order-part";
import { resolveClaim } from "./resolve-claim";
import { revealClaimLine } from "./reveal-claim-line";

// Issue 26.3 and 26.4 at the service level, on real PostgreSQL: claims of a
// single delivered line, their one-time resolution, partial refunds that
// never exceed what was paid, and a ledger that reconciles after all of it.

beforeAll(async () => {
  await useTestDatabase();
});

let seq = 0;
const uniq = () => `AS-${Date.now()}-${++seq}`;

/** A delivered auto order of `quantity` keys at 10.00 each, with `spare` more keys left in stock. */
async function deliveredOrder(opts: { quantity?: number; spare?: number; profile?: "U" | "P"; pointsCents?: bigint } = {}) {
  const quantity = opts.quantity ?? 3;
  const keys = cardKeysFor("AS", quantity + (opts.spare ?? 2));
  const { sku, product } = await makeProduct({ priceCents: 1000n, cardKeys: keys });
  const buyer = await makeBuyer({ pointsCents: opts.pointsCents ?? 100_000n });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: opts.profile ?? "P",
    input: { downstreamOrderNo: uniq(), skuId: sku.id, quantity },
  });
  expect(order.status).toBe("delivered");
  return { buyer, order, keys, sku, product };
}

const claim = (buyerId: number, orderId: number, line: number, requestId = uniq(), reason = "key does not activate") =>
  openClaim({ credentialId: buyerId, orderId, requestId, line, reason });

describe("issue 26.3: opening a claim", () => {
  it("issue 26.3: a claim of a delivered line opens once per request_id; the same request again answers it; other params are idempotency_conflict", async () => {
    const { buyer, order, keys } = await deliveredOrder();
    const first = await claim(buyer.id, order.id, 1, "REQ-1");
    expect(first.created).toBe(true);
    expect(first.claim).toMatchObject({ orderId: order.id, line: 1, state: "open", requestId: "REQ-1" });
    expect(first.claim.claimedLine()).toBe(keys[1]);
    const again = await claim(buyer.id, order.id, 1, "REQ-1");
    expect(again).toMatchObject({ created: false, claim: { id: first.claim.id } });
    await expectError(claim(buyer.id, order.id, 2, "REQ-1"), "idempotency_conflict", 409);
    // D1 409: a line already claimed, whatever the request_id.
    await expectError(claim(buyer.id, order.id, 1, "REQ-2"), "line_already_claimed", 409);
    expect(await db().afterSalesClaim.count({ where: { orderId: order.id } })).toBe(1);
  });

  it("issue 26.3: window per product: 0 = none; past 24 h after delivery after_sales_closed; a line out of range 400; another key's order 404 (D20)", async () => {
    const { buyer, order, product } = await deliveredOrder();
    await expectError(claim(buyer.id, order.id, 3), "bad_request", 400);
    await expectError(claim(buyer.id, order.id, -1), "bad_request", 400);
    const other = await makeBuyer();
    await expectError(claim(other.id, order.id, 0), "order_not_found", 404);
    const late = new Date(Date.now() + 24 * 3_600_000 + 60_000);
    await expectError(
      openClaim({ credentialId: buyer.id, orderId: order.id, requestId: uniq(), line: 0, reason: "late", now: late }),
      "after_sales_closed",
      409,
    );
    await db().product.update({ where: { id: product.id }, data: { afterSalesHours: 0 } });
    const err = await expectError(claim(buyer.id, order.id, 0), "after_sales_closed", 409);
    expect(err.publicMessage).toMatch(/no after-sales/);
    await db().product.update({ where: { id: product.id }, data: { afterSalesHours: 48 } });
    expect(
      (await openClaim({ credentialId: buyer.id, orderId: order.id, requestId: uniq(), line: 0, reason: "within 48 h", now: late }))
        .created,
    ).toBe(true);
  });

  it("issue 26.3: ten concurrent claims of one line with different request_ids open exactly one", async () => {
    const { buyer, order } = await deliveredOrder();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => claim(buyer.id, order.id, 0)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("line_already_claimed");
    expect(await db().afterSalesClaim.count({ where: { orderId: order.id } })).toBe(1);
  });
});

describe("issue 26.3: resolving a claim", () => {
  it("issue 26.3: replace puts the SKU's next card key at the same index of delivery_data; the old line stays in the claim, and the new one may be claimed again", async () => {
    const { buyer, order, keys, product } = await deliveredOrder({ quantity: 2, spare: 1 });
    // Issue 33.4: a line is replaced once by default; this product allows the second replace below.
    await db().product.update({ where: { id: product.id }, data: { afterSalesReplaces: 2 } });
    const { claim: c } = await claim(buyer.id, order.id, 0);
    const resolved = await resolveClaim({ claimId: c.id, action: "replace", actor: CLI_ACTOR });
    expect(resolved.state).toBe("replaced");
    const read = await getOrder({ credentialId: buyer.id, orderId: order.id });
    expect(read.fulfillment?.lines).toEqual([keys[2], keys[1]]);
    expect(resolved.claimedLine()).toBe(keys[0]);
    expect(await balanceOf(buyer.user.id)).toBe(100_000n - 2000n); // no money moved
    const list = await listOrderClaims({ credentialId: buyer.id, orderId: order.id });
    expect(list.claims.map((x) => x.state)).toEqual(["replaced"]);
    expect((await claim(buyer.id, order.id, 0)).created).toBe(true); // the replacement is a new key
    // No stock left: a replacement must be given by hand.
    const second = (await listClaims({ state: "open" })).find((x) => x.orderId === order.id)!;
    await expectError(resolveClaim({ claimId: second.id, action: "replace", actor: SYSTEM_ACTOR }), "insufficient_stock");
    await resolveClaim({ claimId: second.id, action: "replace", replacement: "HAND-TYPED-KEY", actor: SYSTEM_ACTOR });
    expect((await getOrder({ credentialId: buyer.id, orderId: order.id })).fulfillment?.lines).toEqual(["HAND-TYPED-KEY", keys[1]]);
  });

  it("issue 26.3: refund gives the line's price back through the ledger; the order shows refunded_amount; reject needs a reason", async () => {
    const { buyer, order } = await deliveredOrder({ quantity: 3 });
    const a = (await claim(buyer.id, order.id, 2)).claim;
    const r = await resolveClaim({ claimId: a.id, action: "refund", actor: SYSTEM_ACTOR });
    expect(r).toMatchObject({ state: "refunded", refundCents: 1000n });
    expect(await balanceOf(buyer.user.id)).toBe(100_000n - 3000n + 1000n);
    const ledger = await db().pointsLedger.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" } });
    expect(ledger.map((l) => l.deltaCents)).toEqual([-3000n, 1000n]);
    expect(orderReadWire("P", await getOrder({ credentialId: buyer.id, orderId: order.id }))).toMatchObject({
      amount: "30.00",
      refunded_amount: "10.00",
    });

    const b = (await claim(buyer.id, order.id, 1)).claim;
    await expectError(resolveClaim({ claimId: b.id, action: "reject", actor: SYSTEM_ACTOR }), "bad_request");
    const rejected = await resolveClaim({ claimId: b.id, action: "reject", note: "the key was activated by you", actor: SYSTEM_ACTOR });
    expect(rejected).toMatchObject({ state: "rejected", resolutionNote: "the key was activated by you" });
    await expectError(resolveClaim({ claimId: b.id, action: "refund", actor: SYSTEM_ACTOR }), "claim_resolved", 409);
    const audit = await db().auditLog.findMany({ where: { targetId: order.orderNo }, orderBy: { id: "asc" } });
    expect(audit.map((x) => x.action)).toEqual(["claim.open", "claim.refund", "claim.open", "claim.reject"]);
  });

  it("issue 26.4: a claim resolves once under 12 concurrent resolutions (console clicks, CLI calls, upstream answers): one change, one ledger row at most", async () => {
    const { buyer, order } = await deliveredOrder({ quantity: 2, spare: 20 });
    const { claim: c } = await claim(buyer.id, order.id, 0);
    const admin = await createAdmin({ email: `as-${Date.now()}@example.test`, password: "a-long-enough-password-1" }, { actor: CLI_ACTOR });
    const actions = ["refund", "replace", "reject", "refund"] as const;
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        resolveClaim({
          claimId: c.id,
          action: actions[i % 4],
          note: "concurrent",
          actor: i % 3 === 0 ? adminActor({ id: admin.id, ip: "127.0.0.1" }) : CLI_ACTOR,
          upstreamState: i % 3 === 2 ? "refunded" : undefined,
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("claim_resolved");
    const refunds = await db().pointsLedger.count({ where: { orderId: order.id, deltaCents: { gt: 0n } } });
    const final = await db().afterSalesClaim.findUniqueOrThrow({ where: { id: c.id } });
    expect(refunds).toBe(final.state === "refunded" ? 1 : 0);
    expect(
      await db().auditLog.count({ where: { targetId: order.orderNo, action: { startsWith: "claim." }, NOT: { action: "claim.open" } } }),
    ).toBe(1);
  });

  it("decision 0034: the console's resolve form carries a once-token: the same submission twice changes nothing the second time", async () => {
    const { buyer, order } = await deliveredOrder({ quantity: 2 });
    const { claim: c } = await claim(buyer.id, order.id, 0);
    const token = newOnceToken();
    await resolveClaim({ claimId: c.id, action: "refund", onceToken: token, actor: SYSTEM_ACTOR });
    await expect(resolveClaim({ claimId: c.id, action: "refund", onceToken: token, actor: SYSTEM_ACTOR })).rejects.toBeInstanceOf(
      AlreadyDoneError,
    );
    expect(await db().pointsLedger.count({ where: { orderId: order.id, deltaCents: { gt: 0n } } })).toBe(1);
  });

  it("issue 26.3: revealing a claimed line is audited", async () => {
    const { buyer, order, keys } = await deliveredOrder({ quantity: 1 });
    const { claim: c } = await claim(buyer.id, order.id, 0);
    expect(await revealClaimLine({ claimId: c.id, actor: CLI_ACTOR })).toBe(keys[0]);
    const row = await db().auditLog.findFirstOrThrow({ where: { action: "claim.reveal", targetId: order.orderNo } });
    expect(JSON.stringify(row.details)).not.toContain(keys[0]);
  });
});

describe("issue 26.4: partial refunds never exceed what was paid", () => {
  it("issue 26.3: an administrator refunds lines or an amount without a claim; a refunded line cannot be claimed; never more than paid", async () => {
    const { buyer, order } = await deliveredOrder({ quantity: 3 });
    const r1 = await refundOrderPart({ orderNo: order.orderNo, lines: [0], reason: "goodwill", actor: CLI_ACTOR });
    expect(r1).toMatchObject({ refunded: "10.00", refundedTotal: "10.00" });
    await expectError(claim(buyer.id, order.id, 0), "line_already_claimed");
    await expectError(
      refundOrderPart({ orderNo: order.orderNo, lines: [0], reason: "again", actor: SYSTEM_ACTOR }),
      "line_already_claimed",
    );
    await refundOrderPart({ orderNo: order.orderNo, amount: "15.50", reason: "late delivery", actor: SYSTEM_ACTOR });
    await expectError(
      refundOrderPart({ orderNo: order.orderNo, amount: "4.51", reason: "too much", actor: SYSTEM_ACTOR }),
      "refund_exceeds_paid",
      409,
    );
    await refundOrderPart({ orderNo: order.orderNo, amount: "4.50", reason: "the rest", actor: SYSTEM_ACTOR });
    const stored = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.refundedCents).toBe(stored.amountCents);
    // Nothing left to give back: issue 33.4 closes the order to claims (it used to open one that could only fail to refund).
    await expectError(claim(buyer.id, order.id, 2), "after_sales_closed", 409);
    expect(await balanceOf(buyer.user.id)).toBe(100_000n);
    await expectError(refundOrderPart({ orderNo: order.orderNo, reason: "neither", actor: SYSTEM_ACTOR }), "bad_request");
  });

  it("issue 26.4: 25 concurrent refunds of 1.00 on a 20.00 order: exactly 20 succeed, the sum of refunds equals the amount, and the database refuses more", async () => {
    const { buyer, order } = await deliveredOrder({ quantity: 2 });
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => refundOrderPart({ orderNo: order.orderNo, amount: "1.00", reason: `r${i}`, actor: CLI_ACTOR })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("refund_exceeds_paid");
    const { _sum } = await db().pointsLedger.aggregate({
      where: { orderId: order.id, deltaCents: { gt: 0n } },
      _sum: { deltaCents: true },
    });
    expect(_sum.deltaCents).toBe(2000n);
    expect(await balanceOf(buyer.user.id)).toBe(100_000n);
    // The CHECK constraint holds even against a direct write.
    await expect(db().$executeRaw`UPDATE "Order" SET "refundedCents" = "amountCents" + 1 WHERE "id" = ${order.id}`).rejects.toThrow(
      /Order_refunded_within_amount/,
    );
  });

  it("issue 26.4: points:reconcile stays ok after a mixed concurrent run of claims, resolutions and refunds", async () => {
    const orders = await Promise.all(Array.from({ length: 4 }, () => deliveredOrder({ quantity: 3, spare: 3 })));
    await Promise.allSettled(
      orders.flatMap(({ buyer, order }, i) => [
        (async () => {
          const { claim: c } = await claim(buyer.id, order.id, 0);
          await Promise.allSettled([
            resolveClaim({ claimId: c.id, action: "refund", actor: SYSTEM_ACTOR }),
            resolveClaim({ claimId: c.id, action: "replace", actor: SYSTEM_ACTOR }),
          ]);
        })(),
        (async () => {
          const { claim: c } = await claim(buyer.id, order.id, 1);
          await resolveClaim({ claimId: c.id, action: i % 2 ? "reject" : "refund", note: "mixed", actor: SYSTEM_ACTOR });
        })(),
        refundOrderPart({ orderNo: order.orderNo, amount: "7.00", reason: "mixed", actor: SYSTEM_ACTOR }),
        refundOrderPart({ orderNo: order.orderNo, lines: [2], reason: "mixed", actor: SYSTEM_ACTOR }),
        refundOrderPart({ orderNo: order.orderNo, amount: "9.99", reason: "mixed", actor: SYSTEM_ACTOR }),
      ]),
    );
    for (const { buyer, order } of orders) {
      const stored = await db().order.findUniqueOrThrow({ where: { id: order.id } });
      const { _sum } = await db().pointsLedger.aggregate({
        where: { orderId: order.id, deltaCents: { gt: 0n } },
        _sum: { deltaCents: true },
      });
      expect(_sum.deltaCents ?? 0n).toBe(stored.refundedCents);
      expect(stored.refundedCents <= stored.amountCents).toBe(true);
      expect(await ledgerSum(buyer.user.id)).toBe(await balanceOf(buyer.user.id));
    }
    expect((await reconcilePoints()).ok).toBe(true);
  });
});
