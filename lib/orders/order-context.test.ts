import { beforeAll, expect, it } from "vitest";
import { makeBuyer, makeProduct, cardKeysFor } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { createOrder } from "./create-order";
import { readOrderContext, type OrderContextKey } from "./order-context";

// Issue 40.1: order contexts read at the same moment go in one statement
// (lib/db/grouped-reads.ts); each request still gets exactly its own answer.

beforeAll(async () => {
  await useTestDatabase();
});

it("issue 40.1, D18: contexts read together answer each key as a read alone does; a key PostgreSQL refuses fails only its own read", async () => {
  const [a, b] = await Promise.all([makeBuyer(), makeBuyer()]);
  const [one, two] = await Promise.all([
    makeProduct({ cardKeys: cardKeysFor("CTX-A", 3) }),
    makeProduct({ fulfillmentType: "manual", stockQuantity: 5 }),
  ]);
  const { order } = await createOrder({
    credential: { id: a.id, userId: a.user.id },
    profile: "U",
    input: { downstreamOrderNo: "CTX-EXISTING", skuId: one.sku.id, quantity: 1 },
  });
  const keys: OrderContextKey[] = [];
  for (let i = 0; i < 60; i++) {
    const credentialId = i % 2 ? a.id : b.id;
    const skuId = [one.sku.id, two.sku.id, 0, 2 ** 40][i % 4];
    keys.push({ credentialId, skuId, downstreamOrderNo: i % 3 ? `CTX-NEW-${i}` : "CTX-EXISTING" });
  }
  const alone: unknown[] = [];
  for (const key of keys) alone.push(await readOrderContext(key));
  const bad = { credentialId: a.id, skuId: one.sku.id, downstreamOrderNo: "CTX-\u0000" };
  const together = await Promise.allSettled([...keys, bad].map((key) => readOrderContext(key)));

  expect(together.at(-1)!.status).toBe("rejected");
  expect(together.slice(0, -1)).toEqual(alone.map((value) => ({ status: "fulfilled", value })));
  // The answers differ by key: the stored order for its own credential only, each SKU as it is.
  const existing = alone.filter((c) => (c as { existing: { id: number } | null }).existing?.id === order.id);
  expect(existing).toHaveLength(keys.filter((k) => k.credentialId === a.id && k.downstreamOrderNo === "CTX-EXISTING").length);
  expect(alone.map((c) => (c as { sku: { fulfillmentType: string } | null }).sku?.fulfillmentType ?? null)).toEqual(
    keys.map((k) => (k.skuId === one.sku.id ? "auto" : k.skuId === two.sku.id ? "manual" : null)),
  );
});
