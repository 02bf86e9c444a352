import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../lib/testing/test-database";
import { makeBuyer, makeProduct } from "../lib/testing/factories";
import { createOrder } from "../lib/orders/create-order";
import { db } from "../lib/db/client";
import { runCli } from "../lib/testing/run-cli";

// Issue 4: `order:deliver` and `order:fail` run the manual-fulfillment services
// from the ops CLI; both refuse an order that is no longer processing.

let url: string;
const cli = (...args: string[]) => runCli(args, { DATABASE_URL: url });

async function manualOrder(buyer: Awaited<ReturnType<typeof makeBuyer>>, skuId: number, no: string) {
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: "P",
    input: { downstreamOrderNo: no, skuId, quantity: 1 },
  });
  return order;
}

describe("npm run cli -- order:deliver / order:fail", () => {
  beforeAll(async () => {
    url = await useTestDatabase();
  });

  it("delivers a processing manual order with the payload lines, then refuses a second delivery", async () => {
    const buyer = await makeBuyer({ pointsCents: 5000n });
    const { sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5, priceCents: 1000n });
    const order = await manualOrder(buyer, sku.id, "cli-deliver-1");

    const done = await cli("order:deliver", "--order-no", order.orderNo, "--payload", "ACCOUNT-1\nPASSWORD-1\n");
    expect(done.code).toBe(0);
    expect(done.json).toMatchObject({ order_no: order.orderNo, status: "delivered", lines: 2 });
    expect(done.stdout).not.toContain("PASSWORD-1"); // the payload is never echoed
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("delivered");

    const again = await cli("order:deliver", "--order-no", order.orderNo, "--payload", "X");
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/error: /);
    expect(again.stdout.trim()).toBe("");
  });

  it("fails a processing order with a reason and refunds the points (ledger row), then refuses to fail it again", async () => {
    const buyer = await makeBuyer({ pointsCents: 5000n });
    const { sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5, priceCents: 1000n });
    const order = await manualOrder(buyer, sku.id, "cli-fail-1");
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(4000n);

    const failed = await cli("order:fail", "--order-no", order.orderNo, "--reason", "out of codes");
    expect(failed.code).toBe(0);
    expect(failed.json).toMatchObject({ order_no: order.orderNo, status: "failed" });
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(5000n);
    const ledger = await db().pointsLedger.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" } });
    expect(ledger.map((l) => l.deltaCents)).toEqual([-1000n, 1000n]);

    const again = await cli("order:fail", "--order-no", order.orderNo, "--reason", "again");
    expect(again.code).not.toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(5000n);
  });

  it("rejects missing arguments and unknown orders with a clear message", async () => {
    const missing = await cli("order:deliver", "--order-no", "SK1");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--payload is required/);
    const unknown = await cli("order:fail", "--order-no", "SK-NOPE", "--reason", "x");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/not found/);
  });
});
