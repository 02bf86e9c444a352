import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCallbackBody } from "../../callbacks/callback-body";
import { db } from "../../db/client";
import { supplierClient } from "../../protocol/client";
import { startAppServer, type AppServer } from "../../testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "../../testing/factories";
import { jsonReply } from "../../testing/json-reply";
import { useTestDatabase } from "../../testing/test-database";

// Profile U order endpoints over real HTTP (spec 4.5-4.7, section 6, 7, D17-D24, D26, D29, D32).

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
const keysInLogs: string[] = [];
let seq = 0;
const no = () => `U-${Date.now()}-${++seq}`;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 1_000_000n });
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

const api = (creds = buyer, prefix = "/api/v1/upstream") => supplierClient(server.baseUrl, prefix, creds);

const call = jsonReply;

async function autoProduct(n = 5, opts: Parameters<typeof makeProduct>[0] = {}) {
  const keys = cardKeysFor("UKEY", n);
  keysInLogs.push(...keys);
  return { ...(await makeProduct({ priceCents: 500n, cardKeys: keys, ...opts })), keys };
}

describe("Profile U: create and read", () => {
  it("D19/D21: auto delivery answers delivered with the fulfillment (type card_key), titled items and no error_message", async () => {
    const { product, sku, keys } = await autoProduct(3, { deliveryFormat: "apple_account" });
    for (const prefix of ["/api/v1/upstream", "/v1/upstream"]) {
      const created = await call(
        api(buyer, prefix).post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1, unknown_field: "ignored" }),
      );
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ ok: true, status: "delivered", amount: "5.00", currency: "CNY", trace_id: "" });
      expect(created.body).not.toHaveProperty("error_message");
      expect(created.body.items).toEqual([
        {
          product_id: product.id,
          sku_id: sku.id,
          title: product.title,
          quantity: 1,
          unit_price: "5.00",
          total_price: "5.00",
          price_rule: "list",
        },
      ]);
      const f = created.body.fulfillment as { type: string; payload: string; delivery_data: string[]; status: string };
      expect(f.type).toBe("card_key");
      expect(f.status).toBe("delivered");
      expect(keys).toContain(f.payload);
      expect(f.delivery_data).toEqual([f.payload]);

      const read = await call(api(buyer, prefix).get(`/orders/${created.body.order_id as number}`));
      expect(read.body).toEqual(created.body); // D20: U items keep their title
    }
  });

  it("manual products answer processing without fulfillment and decrement the stock number", async () => {
    const { sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 4 });
    const created = await call(
      api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 4, manual_form_data: { reserved: "x" } }),
    );
    expect(created.body).toMatchObject({ status: "processing" });
    expect(created.body).not.toHaveProperty("fulfillment");
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).stockQuantity).toBe(0);
    expect(await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }))).toMatchObject({
      status: 400,
      body: { error_code: "insufficient_stock" },
    });
  });

  it("D18: identical requests (U has no replay protection) return the original order; a different callback_url is 409", async () => {
    const { sku } = await autoProduct(2);
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ downstream_order_no: no(), sku_id: sku.id, quantity: 1, callback_url: "https://93.184.216.34/hook" });
    const first = await call(api().post("/orders", body, { timestamp: ts }));
    const same = await call(api().post("/orders", body, { timestamp: ts }));
    expect(same).toEqual(first);
    expect(await db().pointsLedger.count({ where: { orderId: first.body.order_id as number } })).toBe(1);
    const other = { ...(JSON.parse(body) as object), callback_url: "https://93.184.216.35/hook" };
    expect(await call(api().post("/orders", other))).toMatchObject({ status: 409, body: { error_code: "idempotency_conflict" } });
  });

  it("D26/D29: callback_url is checked at creation and a delivered order stores its callback", async () => {
    const { sku, keys } = await autoProduct(2);
    for (const callback_url of [
      "http://127.0.0.1:9/cb",
      "http://10.0.0.8/cb",
      "http://169.254.169.254/",
      "http://[::ffff:192.168.0.1]/",
      "ftp://93.184.216.34/",
    ]) {
      const r = await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1, callback_url }));
      expect(r, callback_url).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
      expect(String(r.body.error_message)).toContain("callback_url");
    }
    const created = await call(
      api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1, callback_url: "https://93.184.216.34/hook" }),
    );
    const cb = await db().callback.findFirstOrThrow({ where: { orderId: created.body.order_id as number } });
    expect(cb.url).toBe("https://93.184.216.34/hook");
    const payload = JSON.parse(openCallbackBody(cb.body)) as { fulfillment: unknown };
    expect(payload).toMatchObject({
      event: "order.updated",
      order_id: created.body.order_id,
      status: "delivered",
      fulfillment: created.body.fulfillment,
    });
    expect(keys).toContain((payload.fulfillment as { payload: string }).payload);
  });

  it("D32/D24: inactive product → 400 product_unavailable; unknown SKU → sku_unavailable; points disabled → 400 bad_request", async () => {
    const inactive = await autoProduct(1, { isActive: false });
    expect(await call(api().post("/orders", { downstream_order_no: no(), sku_id: inactive.sku.id, quantity: 1 }))).toMatchObject({
      status: 400,
      body: { error_code: "product_unavailable" },
    });
    expect(await call(api().post("/orders", { downstream_order_no: no(), sku_id: 2_000_000_000, quantity: 1 }))).toMatchObject({
      status: 400,
      body: { error_code: "sku_unavailable" },
    });
    const { sku } = await autoProduct(1);
    await db().siteSettings.update({ where: { id: 1 }, data: { pointsDebitEnabled: false } });
    try {
      expect(await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }))).toEqual({
        status: 400,
        body: { ok: false, error_code: "bad_request", error_message: "points payment is disabled" },
      });
    } finally {
      await db().siteSettings.update({ where: { id: 1 }, data: { pointsDebitEnabled: true } });
    }
  });

  it("D17: wrong types and missing fields are 400 bad_request naming the field", async () => {
    for (const [body, field] of [
      [{ sku_id: 1, quantity: 1 }, "downstream_order_no"],
      [{ downstream_order_no: no(), sku_id: "x", quantity: 1 }, "sku_id"],
      [{ downstream_order_no: no(), sku_id: 1, quantity: 0 }, "quantity"],
      [{ downstream_order_no: no(), sku_id: 1, quantity: 1, callback_url: 7 }, "callback_url"],
    ] as const) {
      const r = await call(api().post("/orders", body));
      expect(r.status).toBe(400);
      expect(String(r.body.error_message)).toContain(field);
    }
  });

  it("issue 35.5: Profile U: a field of the wrong type is named as such, a fraction is not a whole number, and only a missing field is required", async () => {
    const { sku } = await autoProduct(1);
    const ok = { downstream_order_no: no(), sku_id: sku.id, quantity: 1 };
    const { quantity: _q, ...noQuantity } = ok;
    const cases: [object, string][] = [
      [{ ...ok, sku_id: String(sku.id) }, 'field "sku_id": must be a number, not a string'],
      [{ ...ok, quantity: 1.5 }, 'field "quantity": must be a whole number'],
      [{ ...ok, quantity: null }, 'field "quantity": must be a number, not null'],
      [{ ...ok, quantity: [1] }, 'field "quantity": must be a number, not an array'],
      [{ ...ok, trace_id: true }, 'field "trace_id": must be a string, not a boolean'],
      [{ ...ok, callback_url: 7 }, 'field "callback_url": must be a string, not a number'],
      [noQuantity, 'field "quantity" is required'],
    ];
    for (const [body, message] of cases) {
      const r = await call(api().post("/orders", body));
      expect([r.status, r.body.error_code, r.body.error_message], JSON.stringify(body)).toEqual([400, "bad_request", message]);
    }
    expect(await db().order.count({ where: { items: { some: { skuId: sku.id } } } })).toBe(0);
  });

  it("D20/D23: foreign orders are 404; cancel is 409 cancel_not_allowed for own orders", async () => {
    const { sku } = await autoProduct(1);
    const created = await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }));
    const other = await makeBuyer();
    expect(await call(api(other).get(`/orders/${created.body.order_id as number}`))).toMatchObject({
      status: 404,
      body: { error_code: "order_not_found" },
    });
    expect(await call(api().get(`/orders/x1`))).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
    expect(await call(api().post(`/orders/${created.body.order_id as number}/cancel`, "{}"))).toMatchObject({
      status: 409,
      body: { error_code: "cancel_not_allowed" },
    });
    expect(await call(api(buyer, "/v1/upstream").post(`/orders/${created.body.order_id as number}/cancel`))).toMatchObject({
      status: 409,
      body: { error_code: "cancel_not_allowed" },
    });
    expect(await call(api(other).post(`/orders/${created.body.order_id as number}/cancel`, "{}"))).toMatchObject({
      status: 404,
      body: { error_code: "order_not_found" },
    });
  });

  it("the server's output never contains card keys or the API secret", () => {
    const out = server.output();
    expect(out).toContain("orders.create");
    for (const s of [...keysInLogs, buyer.apiSecret]) expect(out).not.toContain(s);
  });
});
