import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import type { AppError } from "../errors";
import { reconcilePoints } from "../points/reconcile-points";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { startStubOrderSupplier, type StubOrderSupplier } from "../testing/stub-order-supplier";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "../upstream/add-upstream-connection";
import { editSkuSources } from "../upstream/edit-sku-sources";
import { createOrder } from "./create-order";

// Issue 26.2 with issue 28.1's grouped orders (place-order-batch.ts): a SKU
// whose few keys run out under a burst, an upstream source behind them. The
// last keys are fought over by several group statements at once; a deadlock
// between two of them must cost a retry, never the order. Before the fix an
// order rolled back by a deadlock went into the next group, met the same
// cycle three times and failed with 40P01 (8 to 18 of 1,200 orders here).

const ROUNDS = 4;
const ORDERS = 200;
const CALLERS = 50;
const KEYS = 5;
let stub: StubOrderSupplier;
let connectionId: number;

beforeAll(async () => {
  process.env.DB_POOL_SIZE = "40";
  await useTestDatabase();
  stub = await startStubOrderSupplier("RUNOUT");
  connectionId = (
    await addUpstreamConnection(
      { name: "RUNOUT", baseUrl: stub.origin, profile: "P", apiKey: "k", apiSecret: "s", maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
}, 60_000);
afterAll(async () => {
  await stub?.close();
});

describe("issue 26.2: our keys running out under a burst of grouped orders", () => {
  it("issue 26.2 / 28.1: 200 orders from 50 callers over 5 keys and an upstream source, four times: every order placed once (5 from keys, the rest upstream), none lost to a deadlock", async () => {
    const buyers: Awaited<ReturnType<typeof makeBuyer>>[] = [];
    for (let i = 0; i < ORDERS; i++) buyers.push(await makeBuyer({ pointsCents: 100_000n }));
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor(`RUNOUT${round}`, KEYS) });
      await editSkuSources({
        skuCode: sku.skuCode,
        change: { op: "add-upstream", connectionId, upstreamSkuId: 10, maxCostCents: null },
        actor: SYSTEM_ACTOR,
      });
      const ids: number[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: CALLERS }, async () => {
          for (let i = next++; i < ORDERS; i = next++) {
            const b = buyers[i];
            try {
              const { order } = await createOrder({
                credential: { id: b.id, userId: b.user.id },
                profile: "P",
                input: { downstreamOrderNo: `RUNOUT-${round}-${i}`, skuId: sku.id, quantity: 1 },
              });
              ids.push(order.id);
            } catch (err) {
              failures.push(`${(err as AppError).code ?? ""} ${(err as Error).message}`);
            }
          }
        }),
      );
      expect(failures).toEqual([]);
      const orders = await db().order.findMany({ where: { id: { in: ids } }, include: { ledger: true, upstreamPurchase: true } });
      expect(orders).toHaveLength(ORDERS);
      expect(orders.filter((o) => o.status === "delivered")).toHaveLength(KEYS);
      expect(orders.filter((o) => o.status === "processing" && o.upstreamPurchase !== null)).toHaveLength(ORDERS - KEYS);
      expect(orders.every((o) => o.ledger.length === 1 && o.ledger[0].deltaCents === -100n)).toBe(true);
    }
    expect(await reconcilePoints()).toMatchObject({ ok: true });
  }, 300_000);
});
