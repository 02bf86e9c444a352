import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { disableApiKey } from "../credentials/disable-api-key";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { deliverOrder } from "../fulfillment/deliver-order";
import { failOrder } from "../fulfillment/fail-order";
import { startWorker, type WorkerHandle } from "../worker/start-worker";
import { createOrder } from "../orders/create-order";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP } from "../protocol/headers";
import { verifySignature } from "../protocol/signing";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { listCallbacks } from "./list-callbacks";
import { resendCallback } from "./resend-callback";

// Profile U callbacks end to end (D26-D29): a real receiver on 127.0.0.1, the
// real worker in this process with a shortened retry schedule.

let receiver: CallbackReceiver;
let worker: WorkerHandle;

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the receiver is on loopback
  process.env.CALLBACK_RETRY_SCHEDULE = "0.05,0.05,0.05,0.05"; // 5 attempts, milliseconds apart
  process.env.CALLBACK_TIMEOUT_MS = "2000";
  const url = await useTestDatabase();
  receiver = await startCallbackReceiver();
  worker = await startWorker({ connectionString: url, concurrency: 2, pollIntervalMs: 50 });
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.respond = () => ({ status: 200 });
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
});

let seq = 0;
async function manualUOrder(callbackPath: string) {
  const buyer = await makeBuyer({ pointsCents: 50_000n });
  const { sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 990n, stockQuantity: 5 });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: "U",
    input: { downstreamOrderNo: `CB-${Date.now()}-${++seq}`, skuId: sku.id, quantity: 1, callbackUrl: `${receiver.origin}${callbackPath}` },
  });
  return { buyer, order };
}
const callbackOf = (orderId: number) =>
  db().callback.findFirstOrThrow({ where: { orderId }, include: { attempts: { orderBy: { id: "asc" } } } });

describe("callback delivery", () => {
  it("D27: signed with the order's credential over the callback URL's path (no query); body of section 6", async () => {
    const { buyer, order } = await manualUOrder("/hooks/order?token=abc&x=1");
    await deliverOrder({ orderNo: order.orderNo, payloadText: "CARD-AAA\nCARD-BBB", actor: SYSTEM_ACTOR });
    await waitFor(async () => (await callbackOf(order.id)).status === "delivered");
    expect(receiver.received).toHaveLength(1);
    const req = receiver.received[0];
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/hooks/order?token=abc&x=1");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers[HEADER_API_KEY.toLowerCase()]).toBe(buyer.apiKey);
    const timestamp = String(req.headers[HEADER_TIMESTAMP.toLowerCase()]);
    const signature = String(req.headers[HEADER_SIGNATURE.toLowerCase()]);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature({ method: "POST", path: "/hooks/order", timestamp, body: req.body, secret: buyer.apiSecret, signature })).toBe(
      true,
    );
    expect(
      verifySignature({
        method: "POST",
        path: "/hooks/order?token=abc&x=1",
        timestamp,
        body: req.body + " ",
        secret: buyer.apiSecret,
        signature,
      }),
    ).toBe(false);
    expect(JSON.parse(req.body)).toMatchObject({
      event: "order.updated",
      ok: true,
      order_id: order.id,
      order_no: order.orderNo,
      status: "delivered",
      amount: "9.90",
      currency: "CNY",
      fulfillment: { type: "card_key", status: "delivered", payload: "CARD-AAA\nCARD-BBB", delivery_data: ["CARD-AAA", "CARD-BBB"] },
    });
    const cb = await callbackOf(order.id);
    expect(cb).toMatchObject({ attemptCount: 1, lastError: null });
    expect(cb.deliveredAt).not.toBeNull();
    expect(cb.attempts).toHaveLength(1);
    expect(cb.attempts[0].httpStatus).toBe(200);
  });

  it("D28: a receiver that fails three times then succeeds gets the same content each time", async () => {
    const { order } = await manualUOrder("/flaky");
    receiver.respond = (_req, i) => ({ status: i < 3 ? 500 : 204 });
    await failOrder({ orderNo: order.orderNo, reason: "out of stock upstream", actor: SYSTEM_ACTOR });
    const cb = await waitFor(async () => {
      const c = await callbackOf(order.id);
      return c.status === "delivered" ? c : null;
    });
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ status: "failed", order_no: order.orderNo });
    expect(cb.attemptCount).toBe(4);
    expect(cb.attempts.map((a) => a.httpStatus)).toEqual([500, 500, 500, 204]);
    expect(cb.attempts[0].error).toBe("HTTP 500");
  });

  it("D28: a receiver that never succeeds leaves a failed callback; resend delivers the same body", async () => {
    const { order } = await manualUOrder("/down");
    receiver.respond = () => ({ status: 503 });
    await deliverOrder({ orderNo: order.orderNo, payloadText: "K-1", actor: SYSTEM_ACTOR });
    const failed = await waitFor(async () => {
      const c = await callbackOf(order.id);
      return c.status === "failed" ? c : null;
    });
    expect(failed.attemptCount).toBe(5); // first try + the 4 retries of the schedule
    expect(failed.lastError).toBe("HTTP 503");
    expect(receiver.received).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(5); // nothing more once failed

    const shown = await listCallbacks({ status: "failed" });
    expect(shown.find((c) => c.id === failed.id)).toMatchObject({
      orderNo: order.orderNo,
      status: "failed",
      attempts: 5,
      lastError: "HTTP 503",
    });
    expect(JSON.stringify(shown)).not.toContain("K-1");

    receiver.respond = () => ({ status: 200 });
    expect(await resendCallback({ callbackId: failed.id, actor: SYSTEM_ACTOR })).toEqual({ callbackId: failed.id, status: "pending" });
    await waitFor(async () => (await callbackOf(order.id)).status === "delivered");
    expect(receiver.received).toHaveLength(6);
    expect(receiver.received[5].body).toBe(receiver.received[0].body);
    expect(await db().auditLog.count({ where: { action: "callback.resend", targetId: String(failed.id) } })).toBe(1);
    // A pending (or just resent) callback cannot be resent twice at once.
    await resendCallback({ callbackId: failed.id, actor: SYSTEM_ACTOR });
    await expect(resendCallback({ callbackId: failed.id, actor: SYSTEM_ACTOR })).rejects.toMatchObject({
      code: "callback_pending",
      status: 409,
    });
    await waitFor(async () => (await callbackOf(order.id)).status === "delivered");
  });

  it("D28: redirects are not followed; a 3xx is a failed attempt", async () => {
    const { order } = await manualUOrder("/redirect");
    receiver.respond = (req) =>
      req.url === "/redirect" ? { status: 302, headers: { Location: `${receiver.origin}/elsewhere` } } : { status: 200 };
    await deliverOrder({ orderNo: order.orderNo, payloadText: "K-2", actor: SYSTEM_ACTOR });
    const cb = await waitFor(async () => {
      const c = await callbackOf(order.id);
      return c.status === "failed" ? c : null;
    });
    expect(receiver.received.every((r) => r.url === "/redirect")).toBe(true);
    expect(cb.attempts.every((a) => a.httpStatus === 302)).toBe(true);
  });

  it("D28: no answer within the timeout is a failed attempt", async () => {
    process.env.CALLBACK_TIMEOUT_MS = "200";
    try {
      const { order } = await manualUOrder("/slow");
      receiver.respond = (_r, i) => (i === 0 ? { status: 200, delayMs: 1000 } : { status: 200 });
      await deliverOrder({ orderNo: order.orderNo, payloadText: "K-3", actor: SYSTEM_ACTOR });
      const cb = await waitFor(async () => {
        const c = await callbackOf(order.id);
        return c.status === "delivered" ? c : null;
      });
      expect(cb.attempts[0]).toMatchObject({ httpStatus: null, error: "no response within 200 ms" });
      expect(cb.attempts[1].httpStatus).toBe(200);
    } finally {
      process.env.CALLBACK_TIMEOUT_MS = "2000";
    }
  });

  it("D29: with private networks not allowed, a loopback callback is refused at connect time and nothing is sent", async () => {
    const { order } = await manualUOrder("/private"); // accepted at creation while allowed
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "false";
    await deliverOrder({ orderNo: order.orderNo, payloadText: "K-4", actor: SYSTEM_ACTOR });
    const cb = await waitFor(async () => {
      const c = await callbackOf(order.id);
      return c.status === "failed" ? c : null;
    });
    expect(receiver.received).toHaveLength(0);
    expect(cb.attempts[0].error).toBe("refused to connect: loopback address");
  });

  it("issue 22.9: an order paid before its API key and buyer were disabled still gets its callback", async () => {
    const { buyer, order } = await manualUOrder("/hooks/disabled-key");
    await disableApiKey({ apiKey: buyer.apiKey, actor: SYSTEM_ACTOR });
    await db().user.update({ where: { id: buyer.user.id }, data: { status: "disabled" } });
    await deliverOrder({ orderNo: order.orderNo, payloadText: "CARD-DISABLED", actor: SYSTEM_ACTOR });
    await waitFor(async () => (await callbackOf(order.id)).status === "delivered");
    expect(receiver.received).toHaveLength(1);
    const req = receiver.received[0];
    expect(req.url).toBe("/hooks/disabled-key");
    // Signed with the (now disabled) key's secret, as every callback of that order (D27).
    expect(req.headers[HEADER_API_KEY.toLowerCase()]).toBe(buyer.apiKey);
    expect(
      verifySignature({
        method: "POST",
        path: "/hooks/disabled-key",
        timestamp: String(req.headers[HEADER_TIMESTAMP.toLowerCase()]),
        body: req.body,
        secret: buyer.apiSecret,
        signature: String(req.headers[HEADER_SIGNATURE.toLowerCase()]),
      }),
    ).toBe(true);
    expect(JSON.parse(req.body)).toMatchObject({ order_id: order.id, status: "delivered" });
  });
});
