import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { AppError } from "../errors";
import { reconcilePoints } from "../points/reconcile-points";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { balanceOf, ledgerSum } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { createOrder } from "./create-order";
import type { PlaceOrderRow } from "./place-order";
import { groupStats, placeOrderGrouped } from "./place-order-batch";

// Issue 28.1 (decision 0045): the orders of one buyer that arrive together
// are written in groups, one transaction each (place-order-batch.ts). The
// guarantees are those of a single order: no overdraft, one ledger row per
// debit, points:reconcile ok, each downstream_order_no placed once.

beforeAll(async () => {
  await useTestDatabase();
});

describe("concurrent orders, grouped (issue 28.1)", () => {
  it("issue 28.1: 40 orders each sent twice at once with points for 13: exactly 13 placed once, the rest insufficient_balance, ledger = balance, reconcile ok", async () => {
    const buyer = await makeBuyer({ pointsCents: 1_350n });
    const keys = cardKeysFor("GRP", 60);
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: keys });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const before = { ...groupStats };
    const send = (i: number) =>
      createOrder({ credential, profile: "U", input: { downstreamOrderNo: `GRP-${i}`, skuId: sku.id, quantity: 1 } });
    const results = await Promise.allSettled(Array.from({ length: 80 }, (_, j) => send(j % 40)));

    const placed = new Map<string, Set<number>>();
    const refused: string[] = [];
    results.forEach((r, j) => {
      if (r.status === "rejected") refused.push((r.reason as AppError).code);
      else placed.set(`GRP-${j % 40}`, (placed.get(`GRP-${j % 40}`) ?? new Set()).add(r.value.order.id));
    });
    // Exactly floor(1350 / 100) orders; a number placed answers both of its copies with the same order.
    expect(placed.size).toBe(13);
    expect([...placed.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(refused.every((code) => code === "insufficient_balance")).toBe(true);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(26);

    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(13);
    const debits = await db().pointsLedger.findMany({ where: { userId: buyer.user.id, deltaCents: { lt: 0n } } });
    expect(debits).toHaveLength(13);
    expect(new Set(debits.map((d) => d.orderId)).size).toBe(13);
    const delivered = await db().cardKey.findMany({ where: { skuId: sku.id, status: "delivered" } });
    expect(delivered).toHaveLength(13);
    expect(new Set(delivered.map((k) => k.orderId)).size).toBe(13);
    expect(await balanceOf(buyer.user.id)).toBe(50n);
    expect(await ledgerSum(buyer.user.id)).toBe(50n);
    const reconcile = await reconcilePoints();
    expect(reconcile.mismatches.filter((m) => m.userId === buyer.user.id)).toEqual([]);
    expect(reconcile.ok).toBe(true);

    // The mechanism under test ran: orders of this buyer went in statements of several.
    expect(groupStats.orders - before.orders).toBeGreaterThan(groupStats.statements - before.statements);
  });

  it("issue 28.1: a group with orders refused for stock delivers the rest, each key once, no debit for a refusal", async () => {
    const buyer = await makeBuyer({ pointsCents: 100_000n });
    const keys = cardKeysFor("GRPK", 9);
    const { sku } = await makeProduct({ priceCents: 250n, cardKeys: keys });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const results = await Promise.allSettled(
      Array.from({ length: 24 }, (_, i) =>
        createOrder({ credential, profile: "U", input: { downstreamOrderNo: `GRPK-${i}`, skuId: sku.id, quantity: 1 } }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled").map((r) => r.value.order);
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r.reason as AppError).code);
    expect(ok).toHaveLength(9);
    expect(refused).toEqual(Array(15).fill("insufficient_stock"));
    expect(ok.flatMap((o) => o.fulfillment!.lines).sort()).toEqual([...keys].sort());
    expect(await db().pointsLedger.count({ where: { userId: buyer.user.id, deltaCents: { lt: 0n } } })).toBe(9);
    expect(await balanceOf(buyer.user.id)).toBe(100_000n - 9n * 250n);
    expect(await ledgerSum(buyer.user.id)).toBe(100_000n - 9n * 250n);
  });

  it("issue 28.1: 12 buyers ordering at once, 4 orders each with points for 3: 3 each, ledger = balance per buyer, reconcile ok, groups of several buyers", async () => {
    const before = { ...groupStats };
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("MANY", 60) });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => makeBuyer({ pointsCents: 300n })));
    const results = await Promise.allSettled(
      buyers.flatMap((b) =>
        Array.from({ length: 4 }, (_, i) =>
          createOrder({
            credential: { id: b.id, userId: b.user.id },
            profile: "P",
            input: { downstreamOrderNo: `MANY-${i}`, skuId: sku.id, quantity: 1 },
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(36);
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r.reason as AppError).code);
    expect(refused).toEqual(Array(12).fill("insufficient_balance"));
    for (const b of buyers) {
      expect(await db().order.count({ where: { credentialId: b.id } })).toBe(3);
      expect(await balanceOf(b.user.id)).toBe(0n);
      expect(await ledgerSum(b.user.id)).toBe(0n);
    }
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "delivered" } })).toBe(36);
    expect((await reconcilePoints()).ok).toBe(true);
    expect(groupStats.severalBuyers).toBeGreaterThan(before.severalBuyers);
  });

  it("issue 28.1: an order that fails inside a group rolls back alone; the others commit, and each retry places its order once", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const { product, sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("FAIL", 10) });
    const row = (n: number, skuId = sku.id): PlaceOrderRow => ({
      orderNo: `G${Date.now()}${n}${Math.random().toString().slice(2, 8)}`,
      credentialId: buyer.id,
      userId: buyer.user.id,
      profile: "P",
      downstreamOrderNo: `FAIL-${n}`,
      requestDigest: `d${n}`,
      requestRawDigest: `r${n}`,
      traceId: null,
      callbackUrl: null,
      manualFormData: {},
      skuId,
      productId: product.id,
      title: { en: "t" },
      quantity: 1,
      auto: true,
      deliveryFormat: "text",
    });
    const before = { ...groupStats };
    // The first goes alone; the next five wait and go as one group, the third of them for a SKU that does not exist.
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((n) => placeOrderGrouped(row(n, n === 4 ? 2_000_000_000 : sku.id))));
    expect(groupStats.orders - before.orders).toBe(5);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(String((results[3] as PromiseRejectedResult).reason)).toContain("place_order: no SKU");
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(5);

    // Retries: the failed one now places once; a placed one is found stored (null, D18) and writes nothing.
    const again = await Promise.all([placeOrderGrouped(row(4)), placeOrderGrouped(row(2)), placeOrderGrouped(row(4))]);
    expect(again[0]?.keys).toHaveLength(1);
    expect(again.slice(1)).toEqual([null, null]);
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(6);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "delivered" } })).toBe(6);
    expect(await db().pointsLedger.count({ where: { userId: buyer.user.id, deltaCents: { lt: 0n } } })).toBe(6);
    expect(await balanceOf(buyer.user.id)).toBe(10_000n - 600n);
    expect(await ledgerSum(buyer.user.id)).toBe(10_000n - 600n);
    expect((await reconcilePoints()).ok).toBe(true);
  });

  it("issue 28.1: orders stuck behind a row lock another transaction holds do not hold up other buyers' orders", async () => {
    const { sku: stuckSku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 10, priceCents: 100n });
    const { sku: freeSku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("FREE", 1) });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => makeBuyer()));
    const order = (who: typeof a, skuId: number, no: string) =>
      createOrder({ credential: { id: who.id, userId: who.user.id }, profile: "P", input: { downstreamOrderNo: no, skuId, quantity: 1 } });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let taken!: () => void;
    const lockTaken = new Promise<void>((r) => (taken = r));
    // As an import would: a transaction holding the SKU's row, which each order's stock update waits for.
    const holder = db().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "Sku" WHERE "id" = ${stuckSku.id} FOR UPDATE`;
        taken();
        await held;
      },
      { timeout: 30_000 },
    );
    await lockTaken;
    // Two statements, one per lane, wait for that row…
    const stuck = [order(a, stuckSku.id, "STUCK-1"), order(b, stuckSku.id, "STUCK-2")];
    await new Promise((r) => setTimeout(r, 100));
    // …and a third buyer's order for another SKU is still placed while they wait.
    const other = await order(c, freeSku.id, "FREE-1");
    expect(other.order.items[0].skuId).toBe(freeSku.id);
    release();
    await holder;
    expect((await Promise.all(stuck)).map((r) => r.order.status)).toEqual(["processing", "processing"]);
    expect((await reconcilePoints()).ok).toBe(true);
  });
});
