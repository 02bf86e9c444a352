import { SYSTEM_ACTOR } from "../audit/actor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { deliverOrder } from "../fulfillment/deliver-order";
import { createOrder } from "../orders/create-order";
import { HEADER_SIGNATURE } from "../protocol/headers";
import { startAppServer, type AppServer } from "../testing/app-server";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";

// The worker runs inside the real app server by default (instrumentation.ts):
// a callback queued by a manual delivery is sent by the server, retried, and
// the server's logs never show the API secret, a signature or a card key.

let server: AppServer;
let receiver: CallbackReceiver;

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // creation check in this process: the receiver is on loopback
  const url = await useTestDatabase();
  receiver = await startCallbackReceiver();
  server = await startAppServer(url, {
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    CALLBACK_RETRY_SCHEDULE: "0.1,0.1",
    WORKER_IN_SERVER: "true",
    WORKER_POLL_INTERVAL_MS: "100",
    LOG_LEVEL: "debug",
  });
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe("worker inside the app server", () => {
  it("delivers a callback after a failed attempt; logs hold no secret, signature or card key", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const { sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 500n, stockQuantity: 3 });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: `WS-${Date.now()}`, skuId: sku.id, quantity: 1, callbackUrl: `${receiver.origin}/in-server?token=t0k3n` },
    });
    receiver.respond = (_r, i) => ({ status: i === 0 ? 500 : 200 });
    await deliverOrder({ orderNo: order.orderNo, payloadText: "CARD-KEY-VISIBLE-ONLY-TO-BUYER", actor: SYSTEM_ACTOR });
    await waitFor(async () => (await db().callback.findFirstOrThrow({ where: { orderId: order.id } })).status === "delivered", 20_000);
    expect(receiver.received).toHaveLength(2);

    // The log line follows the commit; give the child's stdout a moment to arrive.
    const output = await waitFor(() => (server.output().includes("callback delivered") ? server.output() : null), 5_000);
    expect(output).toContain("job worker started");
    expect(output).toContain("CALLBACK_ALLOW_PRIVATE_NETWORKS=true");
    expect(output).toContain("callback delivered");
    expect(output).not.toContain(buyer.apiSecret);
    for (const r of receiver.received) expect(output).not.toContain(String(r.headers[HEADER_SIGNATURE.toLowerCase()]));
    expect(output).not.toContain("CARD-KEY-VISIBLE-ONLY-TO-BUYER");
    expect(output).not.toContain("t0k3n");
  });
});
