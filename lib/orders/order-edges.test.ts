import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { AppError } from "../errors";
import { supplierClient } from "../protocol/client";
import { PROFILE_PREFIXES } from "../protocol/profiles";
import { startAppServer, type AppServer } from "../testing/app-server";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "../testing/factories";
import { jsonReply } from "../testing/json-reply";
import { balanceOf } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { createOrder } from "./create-order";

// Specification edges of the order path (issue 8, item 7): D18 retries after a
// product change, SKIP LOCKED refusals while keys are only locked, and D11
// (visible and orderable, or neither). Real HTTP to the real route handlers,
// real PostgreSQL with a second connection holding locks.

let server: AppServer;
let pool: pg.Pool;
let buyer: Awaited<ReturnType<typeof makeBuyer>>;
let seq = 0;
const no = () => `EDGE-${Date.now()}-${++seq}`;
const api = (profile: "U" | "P") => supplierClient(server.baseUrl, PROFILE_PREFIXES[profile][0], buyer);
const call = jsonReply;
const balance = () => balanceOf(buyer.user.id);
// The catalogue endpoints serve a snapshot at most 1 s old.
const snapshotAge = () => new Promise((r) => setTimeout(r, 1200));

const FORM = {
  fields: [
    { key: "uid", type: "text", required: true, label: { "zh-CN": "用户", en: "User" }, placeholder: { "zh-CN": "", en: "" }, max_len: 20 },
  ],
};
const WIDER_FORM = { fields: [...FORM.fields, { ...FORM.fields[0], key: "zone" }] };

beforeAll(async () => {
  const url = await useTestDatabase();
  pool = new pg.Pool({ connectionString: url, max: 3 });
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  buyer = await makeBuyer({ pointsCents: 1_000_000n });
  server = await startAppServer(url);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await pool?.end();
});

describe("issue 8.7 D18: an identical retry is compared with what the order stored", () => {
  it("issue 8.7 D18: after an administrator changed the form schema, the same request answers the original order; another one is still 409", async () => {
    const { sku, product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 10, priceCents: 500n, manualFormSchema: FORM });
    const body = { downstream_order_no: no(), sku_id: sku.id, quantity: 1, manual_form_data: { uid: "  player-1 " } };
    const first = await call(api("P").post("/orders", body));
    expect(first.status).toBe(200);

    // A new required field: today's product would refuse this request's form.
    await db().product.update({ where: { id: product.id }, data: { manualFormSchema: WIDER_FORM } });
    const retry = await call(api("P").post("/orders", body));
    expect(retry.status).toBe(200);
    expect(retry.body.order_id).toBe(first.body.order_id);

    const other = await call(api("P").post("/orders", { ...body, manual_form_data: { uid: "player-2" } }));
    expect(other.status).toBe(409);
    expect(other.body.error_code).toBe("idempotency_conflict");
    expect(await db().order.count({ where: { credentialId: buyer.id, items: { some: { skuId: sku.id } } } })).toBe(1);
  }, 60_000);

  it("issue 8.7 D18: after a re-import changed the fulfillment type, the same request answers the original order", async () => {
    const { sku, product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 10, priceCents: 500n, manualFormSchema: FORM });
    const body = { downstream_order_no: no(), sku_id: sku.id, quantity: 1, trace_id: "t-8.7", manual_form_data: { uid: "player-3" } };
    const first = await call(api("P").post("/orders", body));
    expect(first.status).toBe(200);
    await db().product.update({ where: { id: product.id }, data: { fulfillmentType: "upstream", manualFormSchema: { fields: [] } } });
    const before = await balance();
    const retry = await call(api("P").post("/orders", body));
    expect(retry.status).toBe(200);
    expect(retry.body.order_id).toBe(first.body.order_id);
    expect(await balance()).toBe(before);
  }, 60_000);
});

describe("issue 8.7: SKIP LOCKED never refuses keys that are only locked", () => {
  async function holdKeys(skuId: number) {
    const holder = await pool.connect();
    await holder.query("BEGIN");
    // What an order in flight holds: the free keys of the SKU, row-locked.
    const { rowCount } = await holder.query(`SELECT "id" FROM "CardKey" WHERE "skuId" = $1 AND "status" = 'available' FOR UPDATE`, [skuId]);
    return { holder, rowCount };
  }
  /** Waits (bounded) until the order is waiting for a row lock, or has already finished. */
  async function waitingOrSettled(settled: () => boolean) {
    for (let i = 0; i < 100 && !settled(); i++) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`,
      );
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("issue 8.7: an order waits for keys locked by an order in flight that rolls back, and gets them", async () => {
    const keys = cardKeysFor("LOCKED", 2);
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: keys });
    const { holder, rowCount } = await holdKeys(sku.id);
    expect(rowCount).toBe(2);
    let done = false;
    const pending = createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 2 },
    })
      .then(
        (r) => ({ ok: true as const, r }),
        (e: unknown) => ({ ok: false as const, e }),
      )
      .finally(() => (done = true));
    try {
      await waitingOrSettled(() => done);
    } finally {
      await holder.query("ROLLBACK"); // e.g. the other order was refused insufficient_balance
      holder.release();
    }
    const result = await pending;
    expect(result.ok ? null : (result.e as AppError).code).toBeNull();
    if (result.ok) expect(result.r.order.fulfillment?.lines).toEqual(keys);
  }, 30_000);

  it("issue 8.7: when the order in flight commits the keys, the waiting order is refused insufficient_stock without a debit", async () => {
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("GONE", 1) });
    const { holder } = await holdKeys(sku.id);
    const before = await balance();
    let done = false;
    const pending = createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
    })
      .then(
        () => null,
        (e: unknown) => e,
      )
      .finally(() => (done = true));
    try {
      await waitingOrSettled(() => done);
      await holder.query(`UPDATE "CardKey" SET "status" = 'delivered' WHERE "skuId" = $1`, [sku.id]);
      await holder.query("COMMIT");
    } finally {
      holder.release();
    }
    expect(((await pending) as AppError)?.code).toBe("insufficient_stock");
    expect(await balance()).toBe(before);
  }, 30_000);
});

describe("issue 8.7 D11: visible and orderable, or neither", () => {
  it("issue 8.7 D11: an active product in a category a re-import hid is 404 on detail and refused on order, in both profiles", async () => {
    const category = await makeCategory();
    const { sku, product } = await makeProduct({ categoryId: category.id, priceCents: 700n, cardKeys: cardKeysFor("HID", 3) });
    await snapshotAge();
    expect((await call(api("P").get(`/products/${product.id}`))).status).toBe(200);

    // What an upstream re-import does to a category the upstream no longer lists.
    await db().category.update({ where: { id: category.id }, data: { deletedAt: new Date() } });
    await snapshotAge();
    const before = await balance();
    const detailP = await call(api("P").get(`/products/${product.id}`));
    const detailU = await call(api("U").get(`/products/${product.id}`));
    expect([detailP.status, detailU.status]).toEqual([404, 404]);

    const orderP = await call(api("P").post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }));
    expect([orderP.status, orderP.body.error_code]).toEqual([400, "sku_unavailable"]);
    const orderU = await call(api("U").post("/orders", { downstream_order_no: no(), sku_id: sku.id, quantity: 1 }));
    expect([orderU.status, orderU.body.error_code]).toEqual([400, "product_unavailable"]);
    expect(await balance()).toBe(before);
    expect(await db().cardKey.count({ where: { skuId: sku.id, status: "available" } })).toBe(3);
  }, 60_000);
});
