import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db/client";
import { supplierClient } from "../../protocol/client";
import { startAppServer, type AppServer } from "../../testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "../../testing/factories";
import { jsonReplyWithRequestId } from "../../testing/json-reply";
import { useTestDatabase } from "../../testing/test-database";
import { anyNumber, anyString, stringMatching } from "@/lib/testing/matchers";

// Profile P order endpoints over real HTTP (spec 4.5-4.7, section 7, D8, D17-D24, D32, D33).

let server: AppServer;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
const secretsInLogs: string[] = [];
let seq = 0;
const no = () => `P-${Date.now()}-${++seq}`;

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 1_000_000n });
  server = await startAppServer(url);
});
afterAll(async () => {
  await server?.stop();
});

const api = (creds = buyer, prefix = "/api/v1/provider") => supplierClient(server.baseUrl, prefix, creds);

const call = jsonReplyWithRequestId;

async function autoProduct(n = 5, opts: Parameters<typeof makeProduct>[0] = {}) {
  const keys = cardKeysFor("PKEY", n);
  secretsInLogs.push(...keys);
  return { ...(await makeProduct({ priceCents: 1230n, cardKeys: keys, ...opts })), keys };
}

describe("Profile P: create and read", () => {
  it("D19: create answers processing with error_message null and titled items; read then says delivered (D20, D21)", async () => {
    const { product, sku, keys } = await autoProduct(3);
    const created = await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 2, trace_id: "trace-1" }));
    expect(created.status).toBe(200);
    expect(created.requestId).toBeTruthy();
    expect(created.body).toEqual({
      ok: true,
      order_id: anyNumber(),
      order_no: stringMatching(/^SK\d{16}$/),
      downstream_order_no: anyString(),
      status: "processing",
      amount: "24.60",
      currency: "CNY",
      trace_id: "trace-1",
      error_message: null,
      items: [
        {
          product_id: product.id,
          sku_id: sku.id,
          title: product.title,
          quantity: 2,
          unit_price: "12.30",
          total_price: "24.60",
          price_rule: "list",
        },
      ],
    });
    expect(Object.keys(created.body)[0]).toBe("ok");

    // All four prefixes reach the same order; P reads omit titles and show the fulfillment.
    for (const prefix of ["/api/v1/provider", "/v1/provider"]) {
      const read = await call(api(buyer, prefix).get(`/orders/${created.body.order_id as number}`));
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        ok: true,
        order_id: created.body.order_id,
        status: "delivered",
        error_message: null,
        amount: "24.60",
      });
      expect(read.body.items).toEqual([
        { product_id: product.id, sku_id: sku.id, quantity: 2, unit_price: "12.30", total_price: "24.60", price_rule: "list" },
      ]);
      expect(read.body.fulfillment).toEqual({
        type: "card_key",
        status: "delivered",
        payload: keys.slice(0, 2).join("\n"),
        delivery_data: keys.slice(0, 2),
      });
    }
  });

  it("D21: P says apple_account for auto delivery of apple_account products", async () => {
    const { sku } = await autoProduct(1, { deliveryFormat: "apple_account" });
    const created = await call(api(buyer, "/v1/provider").post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }));
    const read = await call(api().get(`/orders/${created.body.order_id as number}`));
    expect((read.body.fulfillment as { type: string }).type).toBe("apple_account");
  });

  it("manual products stay processing with no fulfillment, stock decremented and the normalised form stored", async () => {
    const { sku } = await makeProduct({
      fulfillmentType: "manual",
      stockQuantity: 10,
      manualFormSchema: {
        fields: [
          { key: "game_uid", type: "text", required: true, max_len: 20 },
          { key: "region", type: "select", options: ["cn", "global"] },
        ],
      },
    });
    secretsInLogs.push("UID-SECRET-4711");
    const created = await call(
      api().post("/orders", {
        downstream_order_no: no(),
        sku_id: sku.id,
        quantity: 3,
        manual_form_data: { game_uid: "  UID-SECRET-4711 ", region: "cn" },
      }),
    );
    expect(created.status).toBe(200);
    expect(created.body.status).toBe("processing");
    const read = await call(api().get(`/orders/${created.body.order_id as number}`));
    expect(read.body.status).toBe("processing");
    expect(read.body).not.toHaveProperty("fulfillment");
    expect((await db().sku.findUniqueOrThrow({ where: { id: sku.id } })).stockQuantity).toBe(7);
    const order = await db().order.findUniqueOrThrow({ where: { id: created.body.order_id as number } });
    expect(order.manualFormData).toEqual({ game_uid: "UID-SECRET-4711", region: "cn" });

    // D33 errors name the field, never the value.
    const bad = await call(
      api().post("/orders", {
        downstream_order_no: no(),
        sku_id: sku.id,
        quantity: 1,
        manual_form_data: { game_uid: "UID-SECRET-4711", region: "UID-SECRET-4711" },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      ok: false,
      error_code: "bad_request",
      error_message: "manual_form_data.region: is not one of the allowed options",
    });
    const missing = await call(
      api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1, manual_form_data: { region: "cn" } }),
    );
    expect(missing.body.error_message).toBe("manual_form_data.game_uid: is required");
    const tooMany = await call(
      api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 8, manual_form_data: { game_uid: "x" } }),
    );
    expect(tooMany).toMatchObject({ status: 400, body: { error_code: "insufficient_stock" } });
  });

  it("D18: the same request again returns the original order with no second debit; other parameters are 409", async () => {
    const { sku } = await autoProduct(3);
    const body = { downstream_order_no: no(), sku_id: sku.id, quantity: 1 };
    const first = await call(api().post("/orders", body));
    const before = (await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents;
    // Same body, another signature (a fresh timestamp): a new request with the same parameters.
    const again = await call(api().post("/orders", body, { timestamp: Math.floor(Date.now() / 1000) - 5 }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(before);
    const conflict = await call(api().post("/orders", { ...body, quantity: 2 }));
    expect(conflict).toMatchObject({ status: 409, body: { ok: false, error_code: "idempotency_conflict" } });
    expect(await db().order.count({ where: { downstreamOrderNo: body.downstream_order_no } })).toBe(1);
  });

  it("D8: a replayed create matching a stored order gets that order (200); other replays get 409 replay_detected", async () => {
    const { sku } = await autoProduct(2);
    const ts = Math.floor(Date.now() / 1000);
    const text = JSON.stringify({ downstream_order_no: no(), sku_id: sku.id, quantity: 1 });
    const first = await call(api().post("/orders", text, { timestamp: ts }));
    const replay = await call(api().post("/orders", text, { timestamp: ts }));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "delivered" } })).toBe(1);

    // A create that failed left no order: its replay is a replay.
    const failed = JSON.stringify({ downstream_order_no: no(), sku_id: sku.id, quantity: 5 });
    expect((await call(api().post("/orders", failed, { timestamp: ts }))).body.error_code).toBe("insufficient_stock");
    expect(await call(api().post("/orders", failed, { timestamp: ts }))).toMatchObject({
      status: 409,
      body: { error_code: "replay_detected" },
    });
    const read = `/orders/${first.body.order_id as number}`;
    expect((await call(api().get(read, { timestamp: ts }))).status).toBe(200);
    expect(await call(api().get(read, { timestamp: ts }))).toMatchObject({ status: 409, body: { error_code: "replay_detected" } });
  });

  it("D20: another key's order and a missing order are the same 404; a non-numeric id is 400", async () => {
    const { sku } = await autoProduct(1);
    const created = await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }));
    const other = await makeBuyer();
    const foreign = await call(api(other).get(`/orders/${created.body.order_id as number}`));
    const missing = await call(api(other).get(`/orders/2000000000`));
    expect(foreign).toMatchObject({ status: 404, body: { ok: false, error_code: "order_not_found" } });
    expect(missing.body).toEqual(foreign.body);
    for (const id of ["abc", "1.5", "-1", "0", "99999999999"]) {
      expect(await call(api().get(`/orders/${id}`)), id).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
    }
  });
});

describe("Profile P: request validation (D17)", () => {
  it("rejects unknown top-level fields, callback_url, wrong types, missing fields and out-of-range values with 400 bad_request naming the field", async () => {
    const { sku } = await autoProduct(1);
    const ok = { downstream_order_no: no(), sku_id: sku.id, quantity: 1 };
    const cases: [object, string][] = [
      [{ ...ok, extra: 1 }, "extra"],
      [{ ...ok, callback_url: "https://93.184.216.34/cb" }, "callback_url"],
      [{ ...ok, sku_id: String(sku.id) }, "sku_id"],
      [{ ...ok, quantity: 0 }, "quantity"],
      [{ ...ok, quantity: 1_000_001 }, "quantity"],
      [{ ...ok, quantity: 1.5 }, "quantity"],
      [{ ...ok, downstream_order_no: "x".repeat(129) }, "downstream_order_no"],
      [{ ...ok, downstream_order_no: "" }, "downstream_order_no"],
      [{ ...ok, trace_id: "t".repeat(129) }, "trace_id"],
      [{ ...ok, trace_id: 5 }, "trace_id"],
      [{ ...ok, manual_form_data: ["a"] }, "manual_form_data"],
      [{ sku_id: sku.id, quantity: 1 }, "downstream_order_no"],
    ];
    for (const [body, field] of cases) {
      const r = await call(api().post("/orders", body));
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error_code).toBe("bad_request");
      expect(r.body.error_message).toContain(field);
    }
    expect(await call(api().post("/orders", `{"downstream_order_no":"a","sku_id":${sku.id},"quantity":1,"quantity":2}`))).toMatchObject({
      status: 400,
      body: { error_code: "invalid_json" },
    });
    expect(await call(api().post("/orders", "{not json"))).toMatchObject({ status: 400, body: { error_code: "invalid_json" } });
    expect(await call(api().post("/orders", "[1,2]"))).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
    expect(await db().order.count({ where: { items: { some: { skuId: sku.id } } } })).toBe(0);
  });

  it("issue 35.5: Profile P: a field of the wrong type is named as such, a fraction is not a whole number, and only a missing field is required", async () => {
    const { sku } = await autoProduct(1);
    const ok = { downstream_order_no: no(), sku_id: sku.id, quantity: 1 };
    const { quantity: _q, ...noQuantity } = ok;
    const cases: [object, string][] = [
      [{ ...ok, sku_id: String(sku.id) }, 'field "sku_id": must be a number, not a string'],
      [{ ...ok, quantity: 1.5 }, 'field "quantity": must be a whole number'],
      [{ ...ok, quantity: null }, 'field "quantity": must be a number, not null'],
      [{ ...ok, quantity: [1] }, 'field "quantity": must be a number, not an array'],
      [{ ...ok, trace_id: true }, 'field "trace_id": must be a string, not a boolean'],
      [{ ...ok, manual_form_data: "x" }, 'field "manual_form_data": must be an object, not a string'],
      [noQuantity, 'field "quantity" is required'],
    ];
    for (const [body, message] of cases) {
      const r = await call(api().post("/orders", body));
      expect([r.status, r.body.error_code, r.body.error_message], JSON.stringify(body)).toEqual([400, "bad_request", message]);
    }
    expect(await db().order.count({ where: { items: { some: { skuId: sku.id } } } })).toBe(0);
  });

  it("section 7: sku_unavailable (unknown, inactive SKU, inactive product, D32), insufficient_stock, insufficient_balance", async () => {
    const inactiveSku = await autoProduct(1, { skuActive: false });
    const inactiveProduct = await autoProduct(1, { isActive: false });
    for (const skuId of [2_000_000_000, inactiveSku.sku.id, inactiveProduct.sku.id]) {
      expect(await call(api().post("/orders", { downstream_order_no: no(), sku_id: skuId, quantity: 1 }))).toMatchObject({
        status: 400,
        body: { error_code: "sku_unavailable" },
      });
    }
    const { sku } = await autoProduct(1);
    expect(await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 2 }))).toMatchObject({
      status: 400,
      body: { error_code: "insufficient_stock" },
    });
    const poor = await makeBuyer({ pointsCents: 100n });
    expect(await call(api(poor).post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }))).toMatchObject({
      status: 400,
      body: { error_code: "insufficient_balance" },
    });
    expect(await db().order.count({ where: { credentialId: poor.id } })).toBe(0);
  });

  it("D24: points debit disabled → 403 points_disabled", async () => {
    const { sku } = await autoProduct(1);
    await db().siteSettings.update({ where: { id: 1 }, data: { pointsDebitEnabled: false } });
    try {
      expect(await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }))).toMatchObject({
        status: 403,
        body: { error_code: "points_disabled" },
      });
    } finally {
      await db().siteSettings.update({ where: { id: 1 }, data: { pointsDebitEnabled: true } });
    }
  });
});

describe("Profile P: cancel (D23)", () => {
  it("409 cancel_not_allowed for an own order with an empty body or {}; other bodies 400; foreign or missing 404", async () => {
    const { sku } = await autoProduct(1);
    const created = await call(api().post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }));
    const path = `/orders/${created.body.order_id as number}/cancel`;
    for (const body of ["", "{}"]) {
      expect(await call(api().post(path, body)), JSON.stringify(body)).toMatchObject({
        status: 409,
        body: { ok: false, error_code: "cancel_not_allowed" },
      });
    }
    expect(await call(api(buyer, "/v1/provider").post(path, "{}"))).toMatchObject({
      status: 409,
      body: { error_code: "cancel_not_allowed" },
    });
    expect(await call(api().post(path, { reason: "x" }))).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
    const other = await makeBuyer();
    expect(await call(api(other).post(path, "{}"))).toMatchObject({ status: 404, body: { error_code: "order_not_found" } });
    expect(await call(api().post("/orders/2000000000/cancel", "{}"))).toMatchObject({
      status: 404,
      body: { error_code: "order_not_found" },
    });
    expect(await call(api().post("/orders/abc/cancel", "{}"))).toMatchObject({ status: 400, body: { error_code: "bad_request" } });
    // Still delivered: nothing changed.
    expect((await db().order.findUniqueOrThrow({ where: { id: created.body.order_id as number } })).status).toBe("delivered");
  });
});

describe("Profile P: logs", () => {
  it("the server's output never contains card keys, form values or the API secret", () => {
    const out = server.output();
    expect(out).toContain("orders.create");
    for (const s of [...secretsInLogs, buyer.apiSecret]) expect(out).not.toContain(s);
  });
});
