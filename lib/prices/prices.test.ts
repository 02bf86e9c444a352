import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { failOrder } from "../fulfillment/fail-order";
import { setSkuLevelPrices } from "../levels/set-sku-level-prices";
import { reconcilePoints } from "../points/reconcile-points";
import { supplierClient } from "../protocol/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { waitFor } from "../testing/callback-receiver";
import { cardKeysFor, makeBuyer, makeLevel, makeProduct } from "../testing/factories";
import { jsonReply } from "../testing/json-reply";
import { balanceOf, ledgerSum } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { setCreditLimit } from "../users/set-credit-limit";
import { setMemberLevel } from "../users/set-member-level";
import { PriceTiersTextSchema } from "./price-input";
import { setContractPrice } from "./set-contract-price";
import { setPriceTiers } from "./set-price-tiers";
import { stampCatalog } from "../catalog/stamp-catalog";
import { loadEventProducts } from "../catalog-events/load-event-products";
import { catalogEventWire } from "../serializers/catalog-event";

// Issue 38 (decision 0094): contract prices, quantity tiers, max_total and a
// credit line, over real HTTP in both profiles.

let server: AppServer;
let seq = 0;
const no = () => `PR-${Date.now()}-${++seq}`;
const actor = SYSTEM_ACTOR;
type Buyer = Awaited<ReturnType<typeof makeBuyer>>;
const PREFIX = { U: "/api/v1/upstream", P: "/api/v1/provider" } as const;
const api = (b: Buyer, profile: "U" | "P") => supplierClient(server.baseUrl, PREFIX[profile], b);

/** A 200 answer's body, read as the shape the test expects. */
const json = async <T>(res: Promise<Response>): Promise<T> => (await (await res).json()) as T;

interface SkuWire {
  id: number;
  price_amount: string;
  price_tiers?: { min_quantity: number; price_amount: string }[];
}
interface ProductWire {
  id: number;
  price_amount: string;
  skus: SkuWire[];
}

/**
 * The product as this buyer's list shows it, once the catalogue shows it with its SKU and `ready`
 * (eventually consistent, about a second). makeProduct saves the product, then its SKU: a catalogue
 * refreshed between the two lists the product without SKUs for a moment.
 */
async function listed(b: Buyer, profile: "U" | "P", productId: number, ready: (p: ProductWire) => boolean) {
  return waitFor(async () => {
    // A poll is a new request each time (Profile P refuses a repeated signature, D8).
    const r = await json<{ items: ProductWire[] }>(api(b, profile).get(`/products?page=1&page_size=100&poll=${++seq}`));
    const p = r.items.find((i) => i.id === productId);
    return p && p.skus.length > 0 && ready(p) ? p : null;
  });
}

type OrderBody = Record<string, unknown> & { items?: { unit_price: string; price_rule: string; total_price: string }[] };

async function order(b: Buyer, profile: "U" | "P", body: Record<string, unknown>) {
  const r = await jsonReply(api(b, profile).post("/orders", { downstream_order_no: no(), quantity: 1, ...body }));
  return { status: r.status, body: r.body as OrderBody };
}

beforeAll(async () => {
  const url = await useTestDatabase();
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  server = await startAppServer(url);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("issue 38: prices", () => {
  it("issue 38: a contract price is this buyer's alone: catalogue (list and detail, both profiles), order, item and statement", async () => {
    const [a, other] = await Promise.all([makeBuyer({ pointsCents: 10_000n }), makeBuyer({ pointsCents: 10_000n })]);
    const { product, sku } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("CT", 4) });
    await setContractPrice({ email: a.user.email, skuCode: sku.skuCode, price: 950n }, { actor });
    for (const profile of ["U", "P"] as const) {
      const mine = await listed(a, profile, product.id, (p) => p.skus[0].price_amount === "9.50");
      expect(mine.price_amount).toBe("9.50");
      const detail = await json<ProductWire>(api(a, profile).get(`/products/${product.id}`));
      expect(detail.skus[0].price_amount).toBe("9.50");
      expect((await listed(other, profile, product.id, () => true)).skus[0].price_amount).toBe("10.00");
    }
    for (const profile of ["U", "P"] as const) {
      const r = await order(a, profile, { sku_id: sku.id });
      expect(r.status).toBe(200);
      expect(r.body.amount).toBe("9.50");
      expect(r.body.items![0]).toMatchObject({ unit_price: "9.50", price_rule: "contract", total_price: "9.50" });
    }
    expect((await order(other, "U", { sku_id: sku.id })).body.items![0]).toMatchObject({ unit_price: "10.00", price_rule: "list" });
    const statement = await json<{ items: { type: string; unit_price: string | null; price_rule: string | null; amount: string }[] }>(
      api(a, "P").get("/statement"),
    );
    expect(statement.items.filter((i) => i.type === "order")).toEqual([
      expect.objectContaining({ amount: "-9.50", unit_price: "9.50", price_rule: "contract" }),
      expect.objectContaining({ amount: "-9.50", unit_price: "9.50", price_rule: "contract" }),
    ]);
    // Cleared: the list price again, in the catalogue within about a second.
    await setContractPrice({ email: a.user.email, skuCode: sku.skuCode, price: null }, { actor });
    await listed(a, "U", product.id, (p) => p.skus[0].price_amount === "10.00");
  });

  it("issue 38: quantity tiers for every buyer, the lowest of level, contract and tier, shown as price_tiers at this buyer's prices", async () => {
    const level = await makeLevel();
    const [a, b] = await Promise.all([makeBuyer({ pointsCents: 100_000n }), makeBuyer({ pointsCents: 100_000n })]);
    await setMemberLevel({ email: a.user.email, level: level.slug }, { actor });
    const { product, sku } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("TIER", 40) });
    await db().$transaction((tx) => setSkuLevelPrices(tx, { skuId: sku.id, prices: { [level.slug]: 900n } }));
    await setContractPrice({ email: a.user.email, skuCode: sku.skuCode, price: 880n }, { actor });
    await setPriceTiers({ skuCode: sku.skuCode, tiers: PriceTiersTextSchema.parse("3:9.50,10:8.50") }, { actor });

    const seenA = await listed(a, "P", product.id, (p) => p.skus[0].price_tiers?.length === 2);
    expect(seenA.skus[0]).toMatchObject({
      price_amount: "8.80",
      price_tiers: [
        { min_quantity: 3, price_amount: "8.80" },
        { min_quantity: 10, price_amount: "8.50" },
      ],
    });
    const seenB = await listed(b, "U", product.id, (p) => p.skus[0].price_tiers?.length === 2);
    expect(seenB.skus[0]).toMatchObject({
      price_amount: "10.00",
      price_tiers: [
        { min_quantity: 3, price_amount: "9.50" },
        { min_quantity: 10, price_amount: "8.50" },
      ],
    });

    const cases = [
      [a, 1, "8.80", "contract"],
      [a, 10, "8.50", "tier"],
      [b, 2, "10.00", "list"],
      [b, 3, "9.50", "tier"],
      [b, 12, "8.50", "tier"],
    ] as const;
    for (const [buyer, quantity, unit, rule] of cases) {
      const r = await order(buyer, "P", { sku_id: sku.id, quantity });
      expect(r.body.items![0], `${quantity} × ${unit}`).toMatchObject({ unit_price: unit, price_rule: rule });
    }
    await setContractPrice({ email: a.user.email, skuCode: sku.skuCode, price: null }, { actor });
    expect((await order(a, "U", { sku_id: sku.id })).body.items![0]).toMatchObject({ unit_price: "9.00", price_rule: "level" });
  });

  it("issue 38: a tier change moves the product in incremental sync", async () => {
    const a = await makeBuyer();
    const { product, sku } = await makeProduct({ priceCents: 500n, cardKeys: cardKeysFor("SYNC", 2) });
    await listed(a, "U", product.id, () => true);
    const since = new Date().toISOString();
    await setPriceTiers({ skuCode: sku.skuCode, tiers: PriceTiersTextSchema.parse("2:4.00") }, { actor });
    const moved = await waitFor(async () => {
      const r = await json<{ items: ProductWire[] }>(api(a, "U").get(`/products?updated_after=${encodeURIComponent(since)}`));
      return r.items.find((p) => p.id === product.id) ?? null;
    });
    expect(moved.skus[0].price_tiers).toEqual([{ min_quantity: 2, price_amount: "4.00" }]);
  });
});

describe("issue 38: catalogue events", () => {
  it("issue 38: a key's catalogue event shows its contract price and the SKU's tiers at its prices", async () => {
    const a = await makeBuyer();
    const { product, sku } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("EVT", 2) });
    await setContractPrice({ email: a.user.email, skuCode: sku.skuCode, price: 900n }, { actor });
    await setPriceTiers({ skuCode: sku.skuCode, tiers: PriceTiersTextSchema.parse("5:8.00,9:9.50") }, { actor });
    await stampCatalog();
    const products = await db().$transaction((tx) =>
      loadEventProducts(tx, { after: "1970-01-01 00:00:00", limit: 100_000, levelId: a.user.memberLevelId, userId: a.user.id }),
    );
    const wire = catalogEventWire(products.filter((p) => p.id === product.id)).products[0];
    expect(wire).toMatchObject({ price_amount: "9.00" });
    expect(wire.skus[0]).toMatchObject({
      price_amount: "9.00",
      price_tiers: [
        { min_quantity: 5, price_amount: "8.00" },
        { min_quantity: 9, price_amount: "9.00" }, // its tier (9.50) is above its contract price
      ],
    });
  });
});

describe("issue 38: max_total", () => {
  it("issue 38: a total above max_total is 409 max_total_exceeded with nothing debited; at it passes; a repeat is unaffected", async () => {
    const a = await makeBuyer({ pointsCents: 10_000n });
    const { sku } = await makeProduct({ priceCents: 300n, cardKeys: cardKeysFor("MAX", 5) });
    for (const profile of ["U", "P"] as const) {
      const before = await balanceOf(a.user.id);
      const refused = await order(a, profile, { sku_id: sku.id, quantity: 2, max_total: "5.99" });
      expect(refused).toMatchObject({ status: 409, body: { ok: false, error_code: "max_total_exceeded" } });
      expect(await balanceOf(a.user.id)).toBe(before);
      const number = no();
      const ok = await order(a, profile, { sku_id: sku.id, quantity: 2, max_total: "6", downstream_order_no: number });
      expect(ok).toMatchObject({ status: 200, body: { amount: "6.00" } });
      // The same order again, with a cap it would no longer meet: the original order, read-only.
      const again = await order(a, profile, { sku_id: sku.id, quantity: 2, max_total: "1.00", downstream_order_no: number });
      expect(again).toMatchObject({ status: 200, body: { order_id: ok.body.order_id } });
      expect(await balanceOf(a.user.id)).toBe(before - 600n);
    }
  });

  it("issue 38: max_total that is not a positive amount string with at most two decimals is 400 bad_request naming the field", async () => {
    const a = await makeBuyer();
    const { sku } = await makeProduct({ priceCents: 100n, cardKeys: cardKeysFor("MAXB", 1) });
    for (const profile of ["U", "P"] as const) {
      for (const bad of ["1.001", "0", "0.00", "-1.00", 5, "abc", " 5.00", ""]) {
        const r = await order(a, profile, { sku_id: sku.id, max_total: bad });
        expect(r.status, `${profile} ${JSON.stringify(bad)}`).toBe(400);
        expect(r.body).toMatchObject({ error_code: "bad_request" });
        expect(String(r.body.error_message)).toContain("max_total");
      }
    }
    expect(await db().order.count({ where: { userId: a.user.id } })).toBe(0);
  });

  it("issue 38: a price change racing orders: each is charged the price it was accepted at, never above its max_total", async () => {
    const a = await makeBuyer({ pointsCents: 1_000_000n });
    const { sku } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("RACE", 60) });
    let stop = false;
    const changer = (async () => {
      for (let i = 0; !stop && i < 200; i++) {
        await setContractPrice({ email: a.user.email, skuCode: sku.skuCode, price: i % 2 ? 800n : 1200n }, { actor });
      }
    })();
    const results = await Promise.all(Array.from({ length: 40 }, () => order(a, "P", { sku_id: sku.id, quantity: 1, max_total: "10.00" })));
    stop = true;
    await changer;
    const accepted = results.filter((r) => r.status === 200);
    for (const r of results) if (r.status !== 200) expect(r.body).toMatchObject({ error_code: "max_total_exceeded" });
    for (const r of accepted) expect(["8.00", "10.00"]).toContain(r.body.amount);
    const orders = await db().order.findMany({ where: { userId: a.user.id }, include: { items: true } });
    expect(orders).toHaveLength(accepted.length);
    for (const o of orders) {
      expect(o.amountCents).toBe(o.items[0].unitPriceCents);
      expect(o.amountCents).toBeLessThanOrEqual(1000n);
    }
    expect(await ledgerSum(a.user.id)).toBe(await balanceOf(a.user.id));
  });
});

describe("issue 38: credit line", () => {
  it("issue 38: ping and the statement show a negative balance and the limit; orders stop at minus the limit; a refund comes back", async () => {
    const a = await makeBuyer({ pointsCents: 200n });
    const { sku } = await makeProduct({ priceCents: 300n, fulfillmentType: "manual", stockQuantity: 10 });
    await setCreditLimit({ email: a.user.email, limit: 500n }, { actor });
    const first = await order(a, "U", { sku_id: sku.id });
    const second = await order(a, "P", { sku_id: sku.id });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await balanceOf(a.user.id)).toBe(-400n);
    expect(await order(a, "U", { sku_id: sku.id })).toMatchObject({ status: 400, body: { error_code: "insufficient_balance" } });
    for (const profile of ["U", "P"] as const) {
      expect((await jsonReply(api(a, profile).get("/ping"))).body).toMatchObject({ balance: "-4.00", credit_limit: "5.00" });
      expect((await jsonReply(api(a, profile).get("/statement"))).body).toMatchObject({ balance: "-4.00", credit_limit: "5.00" });
    }
    await failOrder({ orderNo: String(first.body.order_no), reason: "no stock after all", actor });
    expect(await balanceOf(a.user.id)).toBe(-100n);
    // A limit below what is owed is refused; what is owed stays.
    await expect(setCreditLimit({ email: a.user.email, limit: 0n }, { actor })).rejects.toThrow(/owes 1.00/);
    expect((await reconcilePoints()).mismatches).toEqual([]);
  });

  it("issue 38: 50 orders in parallel under a credit line never take the balance below minus the limit", async () => {
    const a = await makeBuyer({ pointsCents: 0n });
    const { sku } = await makeProduct({ priceCents: 100n, fulfillmentType: "manual", stockQuantity: 100 });
    await setCreditLimit({ email: a.user.email, limit: 2000n }, { actor });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => order(a, i % 2 ? "U" : "P", { sku_id: sku.id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.error_code === "insufficient_balance")).toBe(true);
    expect(await balanceOf(a.user.id)).toBe(-2000n);
    expect(await ledgerSum(a.user.id)).toBe(-2000n);
    expect((await reconcilePoints()).mismatches).toEqual([]);
  });

  it("issue 38: credit use crossing 80 % alerts once per crossing", async () => {
    const a = await makeBuyer({ pointsCents: 0n });
    const { sku } = await makeProduct({ priceCents: 100n, fulfillmentType: "manual", stockQuantity: 100 });
    await setCreditLimit({ email: a.user.email, limit: 1000n }, { actor });
    const jobs = () =>
      db().$queryRaw<
        { n: bigint }[]
      >`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'alert:credit-use' AND key = ${"credit-use:" + a.user.id}`;
    for (let i = 0; i < 7; i++) expect((await order(a, "P", { sku_id: sku.id })).status).toBe(200);
    expect((await jobs())[0].n).toBe(0n); // 70 %: no crossing yet
    expect((await order(a, "P", { sku_id: sku.id })).status).toBe(200); // 80 %
    expect((await jobs())[0].n).toBe(1n);
    expect((await order(a, "P", { sku_id: sku.id })).status).toBe(200); // 90 %: same side, nothing new
    const { creditUseJob } = await import("../alerts/credit-alerts");
    await Promise.all([creditUseJob({ userId: a.user.id }), creditUseJob({ userId: a.user.id })]);
    const events = await db().alertEvent.findMany({
      where: { kind: "credit_high", dedupeKey: { startsWith: `credit_high:${a.user.id}:` } },
    });
    expect(events).toHaveLength(1);
    expect(events[0].params).toMatchObject({ email: a.user.email, used: "9.00 CNY", limit: "10.00 CNY", percent: 90 });
  });
});
