import pg from "pg";
import { SYSTEM_ACTOR } from "../audit/actor";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { setSkuLevelPrices } from "../levels/set-sku-level-prices";
import { cardKeysFor, makeBuyer, makeLevel, makeProduct } from "../testing/factories";
import { balanceOf, ledgerSum } from "../testing/points";
import { useTestDatabase } from "../testing/test-database";
import { setMemberLevel } from "../users/set-member-level";
import { createOrder } from "./create-order";

// Issue 12.4, decision 0021: place_order takes the unit price inside the
// order's statement, the buyer's member-level price when one is set, else the
// SKU's price, and writes the item, the amount and the debit with it.

let url: string;
beforeAll(async () => {
  url = await useTestDatabase();
});

let seq = 0;
const no = () => `LVL-${Date.now()}-${++seq}`;

async function buyerAt(level: string | null) {
  const buyer = await makeBuyer({ pointsCents: 100_000_000_000n });
  if (level) await setMemberLevel({ userId: buyer.user.id, level }, { actor: SYSTEM_ACTOR });
  return { buyer, credential: { id: buyer.id, userId: buyer.user.id } };
}

/** The stored order, its item and its ledger row, as written by place_order. */
async function stored(orderId: number) {
  const o = await db().order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true, ledger: true } });
  expect(o.items).toHaveLength(1);
  expect(o.ledger).toHaveLength(1);
  return {
    amount: o.amountCents,
    unit: o.items[0].unitPriceCents,
    total: o.items[0].totalPriceCents,
    quantity: o.items[0].quantity,
    debit: -o.ledger[0].deltaCents,
  };
}

describe("member-level prices in the order amount (issue 12.4)", () => {
  it("issue 12.4: a buyer at a level with a price pays it; a buyer at the default level pays the SKU's price; clearing it restores the SKU price", async () => {
    const gold = await makeLevel();
    const { sku } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("LP", 10) });
    await db().$transaction((tx) => setSkuLevelPrices(tx, { skuId: sku.id, prices: { [gold.slug]: 850n } }));
    const member = await buyerAt(gold.slug);
    const plain = await buyerAt(null);

    const a = await createOrder({
      credential: member.credential,
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 2 },
    });
    expect(a.order.amountCents).toBe(1700n);
    expect(a.order.items[0]).toMatchObject({ unitPriceCents: 850n, totalPriceCents: 1700n });
    expect(await stored(a.order.id)).toEqual({ amount: 1700n, unit: 850n, total: 1700n, quantity: 2, debit: 1700n });

    const b = await createOrder({
      credential: plain.credential,
      profile: "P",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 2 },
    });
    expect(b.order.amountCents).toBe(2000n);
    expect(await stored(b.order.id)).toEqual({ amount: 2000n, unit: 1000n, total: 2000n, quantity: 2, debit: 2000n });

    await db().$transaction((tx) => setSkuLevelPrices(tx, { skuId: sku.id, prices: { [gold.slug]: null } }));
    const c = await createOrder({
      credential: member.credential,
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
    });
    expect(await stored(c.order.id)).toMatchObject({ amount: 1000n, unit: 1000n, debit: 1000n });

    // A level price of 0.00 is a price (free for that level), not "no price".
    await db().$transaction((tx) => setSkuLevelPrices(tx, { skuId: sku.id, prices: { [gold.slug]: 0n } }));
    const d = await createOrder({
      credential: member.credential,
      profile: "U",
      input: { downstreamOrderNo: no(), skuId: sku.id, quantity: 1 },
    });
    expect(await stored(d.order.id)).toMatchObject({ amount: 0n, unit: 0n });
    expect(await balanceOf(member.buyer.user.id)).toBe(await ledgerSum(member.buyer.user.id));
  });

  it("issue 12.4: while a second connection keeps changing the SKU price and the level price, 50 concurrent orders each keep one price: unit × quantity = amount = debit, and that price was set", async () => {
    const gold = await makeLevel();
    const { sku } = await makeProduct({ priceCents: 100_000n, fulfillmentType: "manual", stockQuantity: null });
    await db().$transaction((tx) => setSkuLevelPrices(tx, { skuId: sku.id, prices: { [gold.slug]: 500_000n } }));
    const member = await buyerAt(gold.slug);
    const plain = await buyerAt(null);
    const auto = await makeProduct({ priceCents: 100_000n, cardKeys: cardKeysFor("LPR", 30) });
    await db().$transaction((tx) => setSkuLevelPrices(tx, { skuId: auto.sku.id, prices: { [gold.slug]: 500_000n } }));

    // Every price either SKU ever had: SKU prices 100000+i, level prices 500000+i (never equal).
    const skuPrices = new Set([100_000n]);
    const levelPrices = new Set([500_000n]);
    const changer = new pg.Client({ connectionString: url });
    await changer.connect();
    let running = true;
    const changes = (async () => {
      for (let i = 1; running; i++) {
        const sp = 100_000n + BigInt(i);
        const lp = 500_000n + BigInt(i);
        skuPrices.add(sp);
        levelPrices.add(lp);
        const ids = [sku.id, auto.sku.id];
        if (i % 2) {
          // Both prices in one transaction, the SKU row first.
          await changer.query("BEGIN");
          await changer.query(`UPDATE "Sku" SET "priceCents" = $1, "updatedAt" = now() WHERE "id" = ANY($2)`, [sp, ids]);
          await changer.query(`UPDATE "SkuLevelPrice" SET "priceCents" = $1, "updatedAt" = now() WHERE "skuId" = ANY($2)`, [lp, ids]);
          await changer.query("COMMIT");
        } else {
          await changer.query(`UPDATE "SkuLevelPrice" SET "priceCents" = $1, "updatedAt" = now() WHERE "skuId" = ANY($2)`, [lp, ids]);
          await changer.query(`UPDATE "Sku" SET "priceCents" = $1, "updatedAt" = now() WHERE "id" = ANY($2)`, [sp, ids]);
        }
      }
    })();

    let results;
    try {
      results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const who = i % 2 ? member : plain;
          const skuId = i % 5 === 0 ? auto.sku.id : sku.id;
          return createOrder({
            credential: who.credential,
            profile: i % 3 ? "P" : "U",
            input: { downstreamOrderNo: no(), skuId, quantity: 1 + (i % 3) },
          }).then((r) => ({ r, member: who === member }));
        }),
      );
    } finally {
      running = false;
      await changes;
      await changer.end();
    }
    expect(skuPrices.size).toBeGreaterThan(5); // the prices really moved while the orders ran

    for (const { r, member: isMember } of results) {
      const s = await stored(r.order.id);
      expect(s.unit * BigInt(s.quantity)).toBe(s.amount);
      expect(s.total).toBe(s.amount);
      expect(s.debit).toBe(s.amount);
      // The answer carries the price the order was written with.
      expect(r.order.amountCents).toBe(s.amount);
      expect(r.order.items[0].unitPriceCents).toBe(s.unit);
      expect((isMember ? levelPrices : skuPrices).has(s.unit)).toBe(true);
    }
    for (const b of [member, plain]) expect(await balanceOf(b.buyer.user.id)).toBe(await ledgerSum(b.buyer.user.id));
  });
});
