import { beforeAll, describe, expect, it } from "vitest";
import { openCallbackBody } from "../callbacks/callback-body";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { expectError } from "../testing/expect-error";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { ledgerSum } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { cancelOrder } from "./cancel-order";
import { createOrder } from "./create-order";
import type { CreateOrderArgs } from "./order-types";
import { getOrder } from "./get-order";
import { matchStoredOrder } from "./match-stored-order";
import { newOrderNo } from "./order-number";

// Order creation at the service level, on real PostgreSQL (spec 4.5, section 3, D18, D22-D24, D32, D33).

beforeAll(async () => {
  await useTestDatabase();
});

let seq = 0;
const no = () => `DN-${Date.now()}-${++seq}`;

describe("createOrder", () => {
  it("delivers auto card keys inside the transaction: keys marked, fulfillment stored (keys stay encrypted), one debit with the order id", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const keys = cardKeysFor("AUTO", 3);
    const { sku, product } = await makeProduct({ priceCents: 1250n, cardKeys: keys });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const { order, replayed } = await createOrder({
      credential,
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 2, traceId: "t-1" },
    });
    expect(replayed).toBe(false);
    expect(order.status).toBe("delivered");
    expect(order.amountCents).toBe(2500n);
    expect(order.items).toEqual([
      {
        productId: product.id,
        skuId: sku.id,
        title: product.title,
        quantity: 2,
        unitPriceCents: 1250n,
        totalPriceCents: 2500n,
        priceRule: "list",
      },
    ]);
    expect(order.fulfillment?.lines).toEqual(keys.slice(0, 2));
    expect(order.orderNo).toMatch(/^SK\d{8}\d{8}$/);

    const stored = await db().order.findUniqueOrThrow({
      where: { id: order.id },
      include: { fulfillment: true, ledger: true },
    });
    const cardKeys = await db().cardKey.findMany({ where: { orderId: order.id } });
    expect(stored.status).toBe("delivered");
    expect(stored.completedAt).not.toBeNull();
    expect(cardKeys.map((k) => k.status)).toEqual(["delivered", "delivered"]);
    expect(stored.fulfillment?.source).toBe("auto");
    // No second copy of the keys: an auto fulfillment's lines are its CardKey rows, encrypted there, in id order.
    expect(stored.fulfillment?.payloadCiphertext).toBeNull();
    expect(stored.fulfillment?.deliveryFormat).toBe(product.deliveryFormat);
    const taken = [...cardKeys].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(taken.every((k) => !Buffer.from(k.ciphertext).toString("latin1").includes(keys[0]))).toBe(true);
    expect(taken.map((k) => decryptText(k.ciphertext))).toEqual(keys.slice(0, 2));
    expect(stored.ledger.map((l) => l.deltaCents)).toEqual([-2500n]);
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(7500n);
    expect(await ledgerSum(buyer.user.id)).toBe(7500n);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "available" } })).toBe(1);

    // get-order reads it back (own credential only).
    expect((await getOrder({ credentialId: buyer.id, orderId: order.id })).fulfillment?.lines).toEqual(keys.slice(0, 2));
    const other = await makeBuyer();
    await expectError(getOrder({ credentialId: other.id, orderId: order.id }), "order_not_found", 404);
  });

  it("D18: the same request returns the original order without a second debit; different parameters are 409", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("IDEM", 5) });
    const args: CreateOrderArgs = {
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "P",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
    };
    const first = await createOrder(args);
    const again = await createOrder(args);
    expect(again.replayed).toBe(true);
    expect(again.order.id).toBe(first.order.id);
    expect(again.order.fulfillment?.lines).toEqual(first.order.fulfillment?.lines);
    expect(await db().pointsLedger.count({ where: { userId: buyer.user.id, orderId: { not: null } } })).toBe(1);
    expect((await matchStoredOrder(args))?.id).toBe(first.order.id);

    // P normalises the form of an auto product to {} (spec 4.5): still the same request.
    expect((await createOrder({ ...args, input: { ...args.input, manualFormData: { a: 1 } } })).order.id).toBe(first.order.id);
    for (const change of [{ quantity: 2 }, { traceId: "x" }, { traceId: "" }, { skuId: sku.id + 100000 }]) {
      await expectError(createOrder({ ...args, input: { ...args.input, ...change } }), "idempotency_conflict", 409);
    }
    // A different profile with the same number is a different request too (U digests callback_url).
    await expectError(createOrder({ ...args, profile: "U" }), "idempotency_conflict", 409);
    expect(await matchStoredOrder({ ...args, input: { ...args.input, quantity: 2 } })).toBeNull();
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(1);
  });

  it("D18: a request that fails leaves no record, and its retry is a new attempt", async () => {
    const buyer = await makeBuyer({ pointsCents: 50n });
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("POOR", 2) });
    const args: CreateOrderArgs = {
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
    };
    await expectError(createOrder(args), "insufficient_balance", 400);
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(0);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "available" } })).toBe(2);
    expect(await db().pointsLedger.count({ where: { userId: buyer.user.id } })).toBe(1); // opening balance only
    await db().user.update({ where: { id: buyer.user.id }, data: { balanceCents: 50n } }); // no-op: still too low
    const rich = await makeBuyer({ pointsCents: 1000n });
    await expectError(createOrder({ ...args, input: { ...args.input, quantity: 3 } }), "insufficient_stock", 400);
    const ok = await createOrder({ ...args, credential: { id: rich.id, userId: rich.user.id } });
    expect(ok.order.status).toBe("delivered");
  });

  it("D32: unknown, inactive SKU → sku_unavailable; inactive product → U product_unavailable, P sku_unavailable", async () => {
    const buyer = await makeBuyer();
    const credential = { id: buyer.id, userId: buyer.user.id };
    const inactiveSku = await makeProduct({ skuActive: false, cardKeys: cardKeysFor("X", 1) });
    const inactiveProduct = await makeProduct({ isActive: false, cardKeys: cardKeysFor("Y", 1) });
    for (const profile of ["U", "P"] as const) {
      await expectError(
        createOrder({ credential, profile, input: { downstreamOrderNo: no(), skuId: 2_000_000_000, quantity: 1 } }),
        "sku_unavailable",
        400,
      );
      await expectError(
        createOrder({ credential, profile, input: { downstreamOrderNo: no(), skuId: 9_000_000_000, quantity: 1 } }),
        "sku_unavailable",
        400,
      );
      await expectError(
        createOrder({ credential, profile, input: { downstreamOrderNo: no(), skuId: inactiveSku.sku.id, quantity: 1 } }),
        "sku_unavailable",
        400,
      );
    }
    await expectError(
      createOrder({ credential, profile: "U", input: { downstreamOrderNo: no(), skuId: inactiveProduct.sku.id, quantity: 1 } }),
      "product_unavailable",
      400,
    );
    await expectError(
      createOrder({ credential, profile: "P", input: { downstreamOrderNo: no(), skuId: inactiveProduct.sku.id, quantity: 1 } }),
      "sku_unavailable",
      400,
    );
    await db().product.update({ where: { id: inactiveSku.product.id }, data: { deletedAt: new Date() } });
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(0);
  });

  it("D24: points disabled → P 403 points_disabled, U 400 bad_request", async () => {
    const buyer = await makeBuyer();
    const credential = { id: buyer.id, userId: buyer.user.id };
    const { sku } = await makeProduct({ cardKeys: cardKeysFor("PD", 2) });
    await db().siteSettings.update({ where: { id: 1 }, data: { pointsDebitEnabled: false } });
    try {
      await expectError(
        createOrder({ credential, profile: "P", input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 } }),
        "points_disabled",
        403,
      );
      const u = await expectError(
        createOrder({ credential, profile: "U", input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 } }),
        "bad_request",
        400,
      );
      expect(u.publicMessage).toBe("points payment is disabled");
    } finally {
      await db().siteSettings.update({ where: { id: 1 }, data: { pointsDebitEnabled: true } });
    }
  });

  it("manual and upstream stay processing, decrement a kept stock number (never an unlimited one) and store the normalised form", async () => {
    const buyer = await makeBuyer({ pointsCents: 100_000n });
    const credential = { id: buyer.id, userId: buyer.user.id };
    const manualFormSchema = {
      fields: [
        { key: "account", type: "text", required: true },
        { key: "servers", type: "checkbox", options: ["a", "b"] },
      ],
    };
    const manual = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3, manualFormSchema });
    const { order } = await createOrder({
      credential,
      profile: "P",
      input: {
        downstreamOrderNo: no(),
        skuId: manual.sku.id,
        quantity: 2,
        manualFormData: { account: " <me> ", servers: ["b", " a", "b"] },
      },
    });
    expect(order.status).toBe("processing");
    expect(order.fulfillment).toBeNull();
    const stored = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.manualFormData).toEqual({ account: "&lt;me&gt;", servers: ["a", "b"] });
    expect((await db().sku.findUniqueOrThrow({ where: { id: manual.sku.id } })).stockQuantity).toBe(1);
    await expectError(
      createOrder({
        credential,
        profile: "P",
        input: { downstreamOrderNo: no(), skuId: manual.sku.id, quantity: 2, manualFormData: { account: "x" } },
      }),
      "insufficient_stock",
    );
    await expectError(
      createOrder({ credential, profile: "P", input: { downstreamOrderNo: no(), skuId: manual.sku.id, quantity: 1 } }),
      "bad_request",
    );
    expect((await db().sku.findUniqueOrThrow({ where: { id: manual.sku.id } })).stockQuantity).toBe(1);

    const upstream = await makeProduct({ fulfillmentType: "upstream", stockQuantity: null });
    const up = await createOrder({
      credential,
      profile: "P",
      input: { downstreamOrderNo: no(), skuId: upstream.sku.id, quantity: 5, manualFormData: { ignored: "x" } },
    });
    expect(up.order.status).toBe("processing");
    expect((await db().order.findUniqueOrThrow({ where: { id: up.order.id } })).manualFormData).toEqual({});
    expect((await db().sku.findUniqueOrThrow({ where: { id: upstream.sku.id } })).stockQuantity).toBeNull();
    // Profile U: the form is reserved (digested, not validated or stored).
    const u = await createOrder({
      credential,
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: manual.sku.id, quantity: 1, manualFormData: { whatever: 1 } },
    });
    expect((await db().order.findUniqueOrThrow({ where: { id: u.order.id } })).manualFormData).toEqual({});
  });

  it("D26/D28: a U order delivered inside the create stores its callback (sealed) in the same transaction", async () => {
    const buyer = await makeBuyer();
    const credential = { id: buyer.id, userId: buyer.user.id };
    const keys = cardKeysFor("CB", 1);
    const { sku } = await makeProduct({ cardKeys: keys });
    const url = "http://93.184.216.34/callback?x=1";
    const { order } = await createOrder({
      credential,
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1, callbackUrl: url },
    });
    const callbacks = await db().callback.findMany({ where: { orderId: order.id } });
    expect(callbacks).toHaveLength(1);
    expect(callbacks[0]).toMatchObject({ url, status: "pending" });
    expect(callbacks[0].body).not.toContain(keys[0]);
    const body = JSON.parse(openCallbackBody(callbacks[0].body)) as { timestamp: unknown };
    expect(body).toMatchObject({
      event: "order.updated",
      ok: true,
      order_id: order.id,
      order_no: order.orderNo,
      status: "delivered",
      amount: "10.00",
      currency: "CNY",
      fulfillment: { type: "card_key", status: "delivered", payload: keys[0], delivery_data: keys },
    });
    expect(typeof body.timestamp).toBe("number");
    // No callback_url, or a P order: no callback row.
    const plain = await createOrder({
      credential,
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: (await makeProduct({ cardKeys: cardKeysFor("N", 1) })).sku.id, quantity: 1 },
    });
    expect(await db().callback.count({ where: { orderId: plain.order.id } })).toBe(0);
  });

  it("D29: a restricted callback_url is refused at creation with 400 and writes nothing", async () => {
    const buyer = await makeBuyer();
    const credential = { id: buyer.id, userId: buyer.user.id };
    const { sku } = await makeProduct({ cardKeys: cardKeysFor("D29", 1) });
    for (const callbackUrl of [
      "http://127.0.0.1/cb",
      "ftp://93.184.216.34/x",
      "http://[::ffff:10.0.0.1]/",
      "http://169.254.169.254/latest",
      "http://localhost:8080/",
    ]) {
      const e = await expectError(
        createOrder({ credential, profile: "U", input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1, callbackUrl } }),
        "bad_request",
        400,
      );
      expect(e.publicMessage).not.toContain(callbackUrl);
    }
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(0);
  });

  it("D23: cancel is 409 for an own order in any state, 404 otherwise", async () => {
    const buyer = await makeBuyer();
    const { sku } = await makeProduct({ cardKeys: cardKeysFor("C", 1) });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "P",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
    });
    await expectError(cancelOrder({ credentialId: buyer.id, orderId: order.id }), "cancel_not_allowed", 409);
    await expectError(cancelOrder({ credentialId: buyer.id + 1000, orderId: order.id }), "order_not_found", 404);
    await expectError(cancelOrder({ credentialId: buyer.id, orderId: 2_000_000_000 }), "order_not_found", 404);
  });

  it("the order's created_at is the stored instant in any process time zone (the plain driver reads a bare timestamp as local time)", async () => {
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("TZ", 1) });
    const zone = process.env.TZ;
    process.env.TZ = "Asia/Shanghai";
    try {
      const { order } = await createOrder({
        credential: { id: buyer.id, userId: buyer.user.id },
        profile: "U",
        input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
      });
      const stored = await db().order.findUniqueOrThrow({ where: { id: order.id } });
      expect(order.createdAt.toISOString()).toBe(stored.createdAt.toISOString());
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("D4: order numbers are SK + date + 8 digits", () => {
    expect(newOrderNo(new Date("2026-11-21T10:00:00Z"))).toMatch(/^SK20261121\d{8}$/);
  });
});
