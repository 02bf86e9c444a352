import { beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { AppError } from "../errors";
import { createOrder } from "../orders/create-order";
import { getOrder } from "../orders/get-order";
import { expectError } from "../testing/expect-error";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { balanceOf } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { openClaim } from "./open-claim";
import { refundOrderPart } from "./refund-order-part";
import { resolveClaim } from "./resolve-claim";
import { setAfterSalesHours } from "./set-after-sales-hours";

// Issue 33.4 on real PostgreSQL: after-sales never gives more than the order
// was worth. An order refunded in full is closed to claims and replaces; one
// line is replaced at most the product's afterSalesReplaces times (default 1)
// within the window, then its claims are refunded or rejected only; parallel
// resolutions never hand out a key the rules refuse.

beforeAll(async () => {
  await useTestDatabase();
});

let seq = 0;
const uniq = () => `L-${Date.now()}-${++seq}`;

/** A delivered Profile P order of `quantity` keys at 10.00, with `spare` more keys in stock. */
async function deliveredOrder(quantity: number, spare: number) {
  const keys = cardKeysFor(`L${++seq}`, quantity + spare);
  const { sku, product } = await makeProduct({ priceCents: 1000n, cardKeys: keys });
  const buyer = await makeBuyer({ pointsCents: 100_000n });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: "P",
    input: { downstreamOrderNo: uniq(), skuId: sku.id, quantity },
  });
  expect(order.status).toBe("delivered");
  return { buyer, order, keys, sku, product };
}

const claim = async (buyerId: number, orderId: number, line: number) =>
  (await openClaim({ credentialId: buyerId, orderId, requestId: uniq(), line, reason: "key does not work" })).claim;
const keysTaken = (orderId: number) => db().cardKey.count({ where: { orderId } });
const lines = async (buyerId: number, orderId: number) => (await getOrder({ credentialId: buyerId, orderId })).fulfillment?.lines;

describe("issue 33.4: after-sales cannot give more than the order was worth", () => {
  it("issue 33.4: an order refunded in full (15.00 by hand, then 5.00 through a claim) answers after_sales_closed to a new claim, and a replace on it is refused", async () => {
    const { buyer, order, keys } = await deliveredOrder(2, 3);
    await refundOrderPart({ orderNo: order.orderNo, amount: "15.00", reason: "goodwill", actor: CLI_ACTOR });
    const a = await claim(buyer.id, order.id, 0);
    const b = await claim(buyer.id, order.id, 1); // still 5.00 to give: the claim opens
    const refunded = await resolveClaim({ claimId: a.id, action: "refund", actor: CLI_ACTOR });
    expect(refunded.refundCents).toBe(500n); // capped at what was left
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).refundedCents).toBe(2000n);

    // The open claim on the other line: a replace would be a third key for an order fully paid back.
    const replace = await expectError(resolveClaim({ claimId: b.id, action: "replace", actor: CLI_ACTOR }), "after_sales_closed", 409);
    expect(replace.publicMessage).toMatch(/refunded in full/);
    await expectError(
      resolveClaim({ claimId: b.id, action: "replace", replacement: "HAND-KEY", actor: CLI_ACTOR }),
      "after_sales_closed",
      409,
    );
    expect(await keysTaken(order.id)).toBe(2);
    expect(await lines(buyer.id, order.id)).toEqual([keys[0], keys[1]]);
    expect((await db().afterSalesClaim.findUniqueOrThrow({ where: { id: b.id } })).state).toBe("open");
    // It can still be rejected; then a new claim on that line is closed.
    await resolveClaim({ claimId: b.id, action: "reject", note: "refunded in full already", actor: CLI_ACTOR });
    const closed = await expectError(claim(buyer.id, order.id, 1), "after_sales_closed", 409);
    expect(closed.publicMessage).toMatch(/refunded in full/);
    expect(await db().afterSalesClaim.count({ where: { orderId: order.id } })).toBe(2);
    expect(await balanceOf(buyer.user.id)).toBe(100_000n); // paid 20.00, got 20.00 back, no more
  });

  it("issue 33.4: a line replaced once cannot be replaced again within the window (refund only); the per-product setting allows more, or none", async () => {
    const { buyer, order, keys, product } = await deliveredOrder(1, 4);
    expect((await db().product.findUniqueOrThrow({ where: { id: product.id } })).afterSalesReplaces).toBe(1); // the default
    const first = await claim(buyer.id, order.id, 0);
    await resolveClaim({ claimId: first.id, action: "replace", actor: CLI_ACTOR });
    expect(await lines(buyer.id, order.id)).toEqual([keys[1]]);
    const second = await claim(buyer.id, order.id, 0); // the new key may be claimed
    const refused = await expectError(
      resolveClaim({ claimId: second.id, action: "replace", actor: CLI_ACTOR }),
      "replace_limit_reached",
      409,
    );
    expect(refused.publicMessage).toMatch(/replaced 1 time\(s\) already.*refund or reject/);
    await expectError(
      resolveClaim({ claimId: second.id, action: "replace", replacement: "HAND-KEY", actor: CLI_ACTOR }),
      "replace_limit_reached",
      409,
    );
    expect(await keysTaken(order.id)).toBe(2);
    expect(await lines(buyer.id, order.id)).toEqual([keys[1]]);
    expect((await resolveClaim({ claimId: second.id, action: "refund", actor: CLI_ACTOR })).refundCents).toBe(1000n);

    // Two replacements per line: the third claim is refund only.
    const two = await deliveredOrder(1, 4);
    await setAfterSalesHours({ productId: two.product.id, hours: 24, replaces: 2, actor: CLI_ACTOR });
    for (let i = 1; i <= 2; i++) {
      const c = await claim(two.buyer.id, two.order.id, 0);
      await resolveClaim({ claimId: c.id, action: "replace", actor: CLI_ACTOR });
      expect(await lines(two.buyer.id, two.order.id)).toEqual([two.keys[i]]);
    }
    const third = await claim(two.buyer.id, two.order.id, 0);
    await expectError(resolveClaim({ claimId: third.id, action: "replace", actor: CLI_ACTOR }), "replace_limit_reached", 409);
    expect(await keysTaken(two.order.id)).toBe(3);

    // None: every claim is refunded or rejected.
    const none = await deliveredOrder(1, 1);
    await setAfterSalesHours({ productId: none.product.id, hours: 24, replaces: 0, actor: CLI_ACTOR });
    const c = await claim(none.buyer.id, none.order.id, 0);
    await expectError(resolveClaim({ claimId: c.id, action: "replace", actor: CLI_ACTOR }), "replace_limit_reached", 409);
    expect(await keysTaken(none.order.id)).toBe(1);
    await expectError(setAfterSalesHours({ productId: none.product.id, hours: 24, replaces: 101, actor: CLI_ACTOR }), "bad_request", 400);
  });

  it("issue 33.4: concurrent replaces give one key: of parallel replaces of a claim one wins; of the next claim on that line none does", async () => {
    const { buyer, order } = await deliveredOrder(1, 6);
    const first = await claim(buyer.id, order.id, 0);
    const round1 = await Promise.allSettled(
      Array.from({ length: 4 }, () => resolveClaim({ claimId: first.id, action: "replace", actor: CLI_ACTOR })),
    );
    expect(round1.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of round1) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("claim_resolved");

    const second = await claim(buyer.id, order.id, 0);
    const round2 = await Promise.allSettled([
      ...Array.from({ length: 3 }, () => resolveClaim({ claimId: second.id, action: "replace", actor: CLI_ACTOR })),
      resolveClaim({ claimId: second.id, action: "replace", replacement: "HAND-KEY", actor: CLI_ACTOR }),
    ]);
    expect(round2.map((r) => (r.status === "rejected" ? (r.reason as AppError).code : "fulfilled"))).toEqual(
      Array(4).fill("replace_limit_reached"),
    );
    expect(await keysTaken(order.id)).toBe(2); // the order's key and one replacement
    expect(await db().auditLog.count({ where: { action: "claim.replace", targetId: order.orderNo } })).toBe(1);
  });
});
