import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../audit/actor";
import { db } from "../../db/client";
import { deliverOrder } from "../../fulfillment/deliver-order";
import { failOrder } from "../../fulfillment/fail-order";
import { signedHeaders, supplierClient } from "../../protocol/client";
import { dujiaoSignedHeaders } from "../../protocol/dujiao-next";
import { startAppServer, type AppServer } from "../../testing/app-server";
import { waitFor } from "../../testing/callback-receiver";
import {
  dujiaoNextBuyer,
  DujiaoRequestFailed,
  startDujiaoCallbackReceiver,
  type DujiaoCallbackReceiver,
} from "../../testing/dujiao-next-buyer";
import { cardKeysFor, makeBuyer, makeProduct } from "../../testing/factories";
import { jsonReply } from "../../testing/json-reply";
import { balanceOf, ledgerSum } from "../../testing/points";
import { useTestDatabase } from "../../testing/test-database";
import { dujiaoState } from "../../serializers/dujiao-next";

// Issue 37.1 (decision 0090): an unmodified Dujiao-Next shop buys from us. The
// client decodes as their Go structs do (lib/testing/dujiao-next-buyer.ts).

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let receiver: DujiaoCallbackReceiver;
let seq = 0;
const no = () => `DJ${Date.now()}-${++seq}`;
const peer = (creds = buyer, skewSeconds = 0) => dujiaoNextBuyer({ baseUrl: server.baseUrl, ...creds, skewSeconds });

/** What a refused request answered (their client only sees "not 200"; we check the code too). */
async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof DujiaoRequestFailed)) throw new Error(`expected a refusal, got ${String(err)}`);
  return { status: err.status, body: JSON.parse(err.body) as { ok: boolean; error_code: string } };
}

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 100_000n });
  receiver = await startDujiaoCallbackReceiver(buyer);
  server = await startAppServer(url, { WORKER_IN_SERVER: "true", CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe("issue 37.1: connect and import the catalogue", () => {
  it("issue 37.1: ping decodes in their PingResult: numeric user_id, balance and currency", async () => {
    const ping = await peer().ping();
    expect(ping).toMatchObject({ ok: true, protocol_version: "1.0", user_id: buyer.id, balance: "1000.00", currency: "CNY" });
    expect(ping.member_level).toMatchObject({ slug: expect.any(String) as string });
  });

  it("issue 37.1: categories, pages of at most 50, the product wrapped, incremental sync", async () => {
    const before = new Date(Date.now() - 2000);
    const { product, sku } = await makeProduct({ priceCents: 700n, cardKeys: cardKeysFor("DJK", 3) });
    const categories = await peer().categories();
    expect(categories.ok).toBe(true);
    expect(categories.categories?.some((c) => c.id === product.categoryId)).toBe(true);

    // Their importer walks pages until it has `total` items; our catalogue is eventually consistent (about a second).
    const found = await waitFor(async () => {
      const page = await peer().products({ page: 1, pageSize: 100 });
      return page.items?.find((p) => p.id === product.id) ? page : null;
    });
    expect(found.items!.length).toBeLessThanOrEqual(50);
    expect(found.total).toBeGreaterThanOrEqual(1);
    const listed = found.items!.find((p) => p.id === product.id)!;
    expect(listed).toMatchObject({ is_active: true, price_amount: "7.00", category_id: product.categoryId });
    expect(listed.skus).toEqual([expect.objectContaining({ id: sku.id, price_amount: "7.00", stock_quantity: 3, is_active: true })]);

    const detail = await peer().product(product.id);
    expect(detail.ok).toBe(true);
    expect(detail.product).toEqual(listed);
    expect(await refusal(peer().product(2_000_000_000))).toMatchObject({
      status: 404,
      body: { ok: false, error_code: "product_not_found" },
    });

    const since = await peer().products({ page: 1, pageSize: 50, updatedAfter: before });
    expect(since.items?.map((p) => p.id)).toContain(product.id);
  });
});

describe("issue 37.1: buy, read back, repeat", () => {
  it("issue 37.1: a key bought and read back: payload one key per line, delivery_data a map or null, states theirs", async () => {
    const keys = cardKeysFor("DJBUY", 2);
    const { sku } = await makeProduct({ priceCents: 250n, cardKeys: keys });
    const before = await balanceOf(buyer.user.id);
    const created = await peer().createOrder({ sku_id: sku.id, quantity: 2, downstream_order_no: no(), trace_id: "t1", callback_url: "" });
    expect(created).toMatchObject({ ok: true, status: "completed", amount: "5.00", currency: "CNY" });
    expect(created.order_id).toBeGreaterThan(0);
    expect(await balanceOf(buyer.user.id)).toBe(before - 500n);

    const read = await peer().order(created.order_id!);
    expect(read).toMatchObject({
      order_id: created.order_id,
      order_no: created.order_no,
      status: "completed",
      amount: "5.00",
      refunded_amount: "0.00",
    });
    expect(read.fulfillment?.payload?.split("\n").sort()).toEqual([...keys].sort());
    expect(read.fulfillment?.delivery_data ?? null).toBeNull();
    expect(read.fulfillment?.status).toBe("delivered");
  });

  it("issue 37.1: a repeated downstream_order_no with a new trace id and callback URL returns the order; 10 at once debit once", async () => {
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("DJREP", 5) });
    const number = no();
    const before = await balanceOf(buyer.user.id);
    const body = (i: number) => ({
      sku_id: sku.id,
      quantity: 1,
      downstream_order_no: number,
      trace_id: `trace-${i}`,
      callback_url: i % 2 ? "" : receiver.url,
    });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => peer().createOrder(body(i))));
    expect(new Set(answers.map((a) => a.order_id)).size).toBe(1);
    expect(await balanceOf(buyer.user.id)).toBe(before - 100n);
    expect(await ledgerSum(buyer.user.id)).toBe(await balanceOf(buyer.user.id));
    // Another quantity under the same number is another purchase: 409, their client sees "not 200" and nothing moves.
    expect(await refusal(peer().createOrder({ ...body(0), quantity: 2 }))).toMatchObject({
      status: 409,
      body: { error_code: "idempotency_conflict" },
    });
    expect(await balanceOf(buyer.user.id)).toBe(before - 100n);
  });

  it("issue 37.1: refusals in their statuses: 402 balance, 409 stock, 400 sku; numbers over 64 characters", async () => {
    const poor = await makeBuyer({ pointsCents: 1n });
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("DJNO", 1) });
    const order = (creds = buyer, over: Record<string, unknown> = {}) =>
      peer(creds).createOrder({ sku_id: sku.id, quantity: 1, downstream_order_no: no(), trace_id: "", callback_url: "", ...over });
    expect(await refusal(order(poor))).toMatchObject({ status: 402, body: { error_code: "insufficient_balance" } });
    expect(await refusal(order(buyer, { quantity: 2 }))).toMatchObject({ status: 409, body: { error_code: "insufficient_stock" } });
    expect(await refusal(order(buyer, { sku_id: 2_000_000_000 }))).toMatchObject({ status: 400, body: { error_code: "sku_unavailable" } });
    expect(await refusal(order(buyer, { downstream_order_no: "x".repeat(65) }))).toMatchObject({
      status: 400,
      body: { error_code: "bad_request" },
    });
    expect(await refusal(order(buyer, { trace_id: "t".repeat(65) }))).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
    expect(await refusal(order(buyer, { sku_id: "1" }))).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
    expect(await balanceOf(poor.user.id)).toBe(1n);
  });

  it("issue 37.1: cancel is refused for an own order (409) and another key's order is not there (404)", async () => {
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("DJC", 1) });
    const created = await peer().createOrder({ sku_id: sku.id, quantity: 1, downstream_order_no: no(), trace_id: "", callback_url: "" });
    expect(await refusal(peer().cancel(created.order_id!))).toMatchObject({ status: 409, body: { error_code: "cancel_not_allowed" } });
    const other = await makeBuyer();
    expect(await refusal(peer(other).order(created.order_id!))).toMatchObject({ status: 404, body: { error_code: "order_not_found" } });
    expect(await refusal(peer(other).cancel(created.order_id!))).toMatchObject({ status: 404, body: { error_code: "order_not_found" } });
  });
});

describe("issue 37.1: callbacks in their shape", () => {
  it("issue 37.1: states: processing → paid, delivered → completed, part refunded → partially_refunded, failed or all refunded → canceled", () => {
    const o = (status: "processing" | "unknown_review" | "delivered" | "failed", refundedCents = 0n) => ({
      status,
      amountCents: 500n,
      refundedCents,
    });
    expect(
      [o("processing"), o("unknown_review"), o("delivered"), o("delivered", 100n), o("delivered", 500n), o("failed")].map(dujiaoState),
    ).toEqual(["paid", "paid", "completed", "partially_refunded", "canceled", "canceled"]);
  });

  it("issue 37.1: a manual order's delivery and another's failure reach their receiver signed over /api/v1/upstream/callback", async () => {
    const { sku } = await makeProduct({ priceCents: 300n, fulfillmentType: "manual", stockQuantity: 5 });
    const a = await peer().createOrder({
      sku_id: sku.id,
      quantity: 1,
      downstream_order_no: no(),
      trace_id: "",
      callback_url: receiver.url,
    });
    const b = await peer().createOrder({
      sku_id: sku.id,
      quantity: 1,
      downstream_order_no: no(),
      trace_id: "",
      callback_url: receiver.url,
    });
    expect(a.status).toBe("paid");
    await deliverOrder({ orderNo: a.order_no!, payloadText: "CODE-1\nCODE-2", actor: SYSTEM_ACTOR });
    await failOrder({ orderNo: b.order_no!, reason: "out of codes", actor: SYSTEM_ACTOR });

    const delivered = await waitFor(() => receiver.accepted.find((c) => c.order_id === a.order_id));
    expect(delivered).toMatchObject({ event: "order.fulfilled", status: "completed", order_no: a.order_no });
    expect(delivered.fulfillment?.payload).toBe("CODE-1\nCODE-2");
    const canceled = await waitFor(() => receiver.accepted.find((c) => c.order_id === b.order_id));
    expect(canceled).toMatchObject({ event: "order.status_changed", status: "canceled" });
    expect(canceled.fulfillment ?? null).toBeNull();
    expect(receiver.refused).toEqual([]);
    await waitFor(async () => (await db().callback.findFirst({ where: { orderId: a.order_id! } }))?.status === "delivered");
    expect((await peer().order(b.order_id!)).status).toBe("canceled");
  });

  it("issue 37.1: a 200 without ok:true is not received: the attempt is recorded as failed and retried", async () => {
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("DJNACK", 1) });
    receiver.answer = () => ({ status: 200, body: JSON.stringify({ ok: false, message: "procurement order not found" }) });
    try {
      const created = await peer().createOrder({
        sku_id: sku.id,
        quantity: 1,
        downstream_order_no: no(),
        trace_id: "",
        callback_url: receiver.url,
      });
      const row = await waitFor(async () => {
        const c = await db().callback.findFirst({ where: { orderId: created.order_id! } });
        return c && c.attemptCount > 0 ? c : null;
      });
      expect(row.status).toBe("pending");
      expect(row.lastError).toBe('the answer was not {"ok":true}');
    } finally {
      receiver.answer = () => ({ status: 200, body: JSON.stringify({ ok: true, message: "received" }) });
    }
  });
});

describe("issue 37.1: hostile requests; our own headers keep today's behaviour", () => {
  it("issue 37.1: a bad signature, a timestamp 61 s old, an unknown key: 401, nothing written", async () => {
    const orders = await db().order.count();
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("DJH", 1) });
    const body = { sku_id: sku.id, quantity: 1, downstream_order_no: no(), trace_id: "", callback_url: "" };
    expect(await refusal(peer({ ...buyer, apiSecret: "wrong" }).createOrder(body))).toMatchObject({ status: 401 });
    expect(await refusal(peer(buyer, -61).createOrder(body))).toMatchObject({ status: 401 });
    expect(await refusal(peer({ ...buyer, apiKey: "nobody" }).ping())).toMatchObject({ status: 401 });
    expect(await db().order.count()).toBe(orders);
  });

  it("issue 37.1: their headers select their dialect on /api/v1/upstream only; ours win when both are sent", async () => {
    const path = "/api/v1/upstream/ping";
    const theirs = await fetch(server.baseUrl + path, { method: "POST", headers: dujiaoSignedHeaders(buyer, "POST", path, "") });
    expect(await theirs.json()).not.toHaveProperty("provider_type");
    const both = await fetch(server.baseUrl + path, {
      method: "POST",
      headers: { ...dujiaoSignedHeaders(buyer, "POST", path, ""), ...signedHeaders(buyer, "POST", path, "") },
    });
    expect(await both.json()).toMatchObject({ provider_type: "SVC_KEY", user_id: buyer.user.id });
    // The alternate prefix is ours only: their headers alone are not a signature there.
    const alt = await fetch(server.baseUrl + "/v1/upstream/ping", {
      method: "POST",
      headers: dujiaoSignedHeaders(buyer, "POST", "/v1/upstream/ping", ""),
    });
    expect(alt.status).toBe(401);
    // The same key in our protocol: Profile U unchanged.
    expect(await jsonReply(supplierClient(server.baseUrl, "/api/v1/upstream", buyer).get("/ping"))).toMatchObject({
      status: 200,
      body: { ok: true, provider_type: "SVC_KEY" },
    });
  });
});
