import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { AppError } from "../errors";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { balanceOf, ledgerSum } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { createOrder } from "./create-order";

// Concurrency on real PostgreSQL (D18, section 3): duplicates make one order
// and one debit; card keys are never delivered twice; balances match the ledger.

beforeAll(async () => {
  await useTestDatabase();
});

async function balanceMatchesLedger(userId: string) {
  const balance = await balanceOf(userId);
  expect(balance).toBe(await ledgerSum(userId));
  return balance;
}

describe("createOrder under concurrency", () => {
  it("50 parallel identical creates give one order and one debit, and all answer with that order", async () => {
    const buyer = await makeBuyer({ pointsCents: 100_000n });
    const { sku } = await makeProduct({ priceCents: 300n, cardKeys: cardKeysFor("DUP", 60) });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const input = { downstreamOrderNo: "DUP-1", skuId: sku.id, quantity: 1, traceId: "same" };
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => createOrder({ credential, profile: "U", input })));
    const failures = results.filter((r) => r.status === "rejected");
    expect(failures.map((f) => String(f.reason))).toEqual([]);
    const ids = new Set(results.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof createOrder>>>).value.order.id));
    expect(ids.size).toBe(1);
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(1);
    expect(await db().pointsLedger.count({ where: { userId: buyer.user.id, deltaCents: { lt: 0n } } })).toBe(1);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "delivered" } })).toBe(1);
    expect(await balanceMatchesLedger(buyer.user.id)).toBe(100_000n - 300n);
  });

  it("100 parallel distinct orders against 40 card keys: exactly 40 delivered, no key twice, the rest insufficient_stock without a debit", async () => {
    const buyer = await makeBuyer({ pointsCents: 1_000_000n });
    const keys = cardKeysFor("RACE", 40);
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: keys });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        createOrder({ credential, profile: "U", input: { downstreamOrderNo: `RACE-${i}`, skuId: sku.id, quantity: 1 } }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled").map((r) => r.value.order);
    const refused = results.filter((r) => r.status === "rejected").map((r) => r.reason as AppError);
    expect(ok).toHaveLength(40);
    expect(refused.map((e) => e.code)).toEqual(Array(60).fill("insufficient_stock"));
    const delivered = ok.flatMap((o) => o.fulfillment!.lines);
    expect(new Set(delivered).size).toBe(40);
    expect([...delivered].sort()).toEqual([...keys].sort());
    const rows = await db().cardKey.findMany({ where: { skuId: sku.id } });
    expect(rows.every((k) => k.status === "delivered" && k.orderId !== null)).toBe(true);
    expect(new Set(rows.map((k) => k.orderId)).size).toBe(40);
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(40);
    expect(await db().pointsLedger.count({ where: { userId: buyer.user.id, deltaCents: { lt: 0n } } })).toBe(40);
    expect(await balanceMatchesLedger(buyer.user.id)).toBe(1_000_000n - 40n * 100n);
  });

  it("parallel debits never overdraw: with points for 7 orders, exactly 7 succeed", async () => {
    const buyer = await makeBuyer({ pointsCents: 700n });
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("POOR", 20) });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        createOrder({ credential, profile: "P", input: { downstreamOrderNo: `POOR-${i}`, skuId: sku.id, quantity: 1 } }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(7);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r.reason as AppError).code === "insufficient_balance")).toBe(true);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "delivered" } })).toBe(7);
    expect(await balanceMatchesLedger(buyer.user.id)).toBe(0n);
  });
});
