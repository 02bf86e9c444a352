import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../lib/db/client";
import { makeBuyer, makeProduct } from "../lib/testing/factories";
import { runCli } from "../lib/testing/run-cli";
import { useTestDatabase } from "../lib/testing/test-database";

// Issue 38 (decision 0094): contract prices, quantity tiers and credit lines
// from the command line: one JSON line each, audited as "cli"; hostile input
// is one error line, exit 2, nothing changed.

let url: string;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

function expectUsageError(r: { code: number | null; stdout: string; stderr: string }, message: RegExp) {
  expect(r.code).toBe(2);
  expect(r.stderr.split("\n").filter((l) => l.startsWith("error:"))).toHaveLength(1); // then the usage line
  expect(r.stderr).toMatch(message);
  expect(r.stdout.trim()).toBe("");
}

describe("npm run cli: prices and credit (issue 38)", () => {
  beforeAll(async () => {
    url = await useTestDatabase();
  });

  it("issue 38: price:contract:set, --clear and price:contract:list per buyer and per SKU, audited", async () => {
    const buyer = await makeBuyer();
    const { sku } = await makeProduct({ priceCents: 1000n });
    const set = await cli("price:contract:set", "--email", buyer.user.email, "--sku-code", sku.skuCode, "--price", "9.5");
    expect(set.json).toEqual({ email: buyer.user.email, sku_code: sku.skuCode, sku_id: sku.id, price: "9.50", previous: null });
    const byBuyer = await cli<{ contract_prices: unknown[] }>("price:contract:list", "--email", buyer.user.email);
    const bySku = await cli<{ contract_prices: unknown[] }>("price:contract:list", "--sku-code", sku.skuCode);
    for (const list of [byBuyer, bySku]) {
      expect(list.json?.contract_prices).toEqual([
        { email: buyer.user.email, sku_code: sku.skuCode, sku_id: sku.id, price: "9.50", updated_at: expect.any(String) as string },
      ]);
    }
    const cleared = await cli("price:contract:set", "--email", buyer.user.email, "--sku-code", sku.skuCode, "--clear");
    expect(cleared.json).toMatchObject({ price: null, previous: "9.50" });
    expect(await db().contractPrice.count({ where: { skuId: sku.id } })).toBe(0);
    const audit = await db().auditLog.findMany({
      where: { targetId: buyer.user.id, action: { startsWith: "price.contract." } },
      orderBy: { id: "asc" },
    });
    expect(audit.map((a) => [a.actor, a.action])).toEqual([
      ["cli", "price.contract.set"],
      ["cli", "price.contract.clear"],
    ]);
  });

  it("issue 38: price:tiers:set and user:credit print one JSON line each", async () => {
    const buyer = await makeBuyer({ pointsCents: 0n });
    const { sku } = await makeProduct({ priceCents: 1000n });
    const tiers = await cli("price:tiers:set", "--sku-code", sku.skuCode, "--tiers", "10:9.50,100:9");
    expect(tiers.json).toEqual({
      sku_code: sku.skuCode,
      sku_id: sku.id,
      tiers: [
        { min_quantity: 10, price_amount: "9.50" },
        { min_quantity: 100, price_amount: "9.00" },
      ],
      previous: "",
    });
    expect((await cli("price:tiers:set", "--sku-code", sku.skuCode, "--clear")).json).toMatchObject({
      tiers: [],
      previous: "10:9.50,100:9.00",
    });
    const credit = await cli("user:credit", "--email", buyer.user.email, "--limit", "500.00");
    expect(credit.json).toEqual({ id: buyer.user.id, email: buyer.user.email, credit_limit: "500.00", previous: "0.00", balance: "0.00" });
    expect((await cli("user:credit", "--email", buyer.user.email, "--limit", "0")).json).toMatchObject({ credit_limit: "0.00" });
  });

  it("issue 38: hostile input is one error line, exit 2, nothing changed", async () => {
    const buyer = await makeBuyer();
    const { sku } = await makeProduct({ priceCents: 1000n });
    const email = buyer.user.email;
    const code = sku.skuCode;
    const cases: [string[], RegExp][] = [
      [["price:contract:set", "--email", email, "--sku-code", code, "--price", "0"], /--price: must be a positive amount/],
      [["price:contract:set", "--email", email, "--sku-code", code, "--price", "-1.00"], /--price: must be a positive amount/],
      [["price:contract:set", "--email", email, "--sku-code", code, "--price", "1.005"], /--price: must be a positive amount/],
      [["price:contract:set", "--email", email, "--sku-code", code], /--price is required \(or --clear\)/],
      [["price:contract:set", "--email", email, "--sku-code", code, "--price", "1", "--clear"], /--price and --clear/],
      [["user:credit", "--email", email, "--limit", "-5.00"], /--limit: must be a non-negative amount/],
      [["user:credit", "--email", email, "--limit", "5.001"], /--limit: must be a non-negative amount/],
      [["price:tiers:set", "--sku-code", code, "--tiers", "100:9.00,10:9.50"], /ascending order: 10 comes after 100/],
      [["price:tiers:set", "--sku-code", code, "--tiers", "10:9.50,10:9.00"], /quantity 10 appears twice/],
      [
        ["price:tiers:set", "--sku-code", code, "--tiers", Array.from({ length: 21 }, (_, i) => `${i + 1}:1.00`).join(",")],
        /at most 20 tiers/,
      ],
      [["price:tiers:set", "--sku-code", code, "--tiers", "10:0"], /must be QUANTITY:PRICE/],
      [["price:tiers:set", "--sku-code", code, "--tiers", "10:9.505"], /must be QUANTITY:PRICE/],
      [["price:tiers:set", "--sku-code", code, "--tiers", "0:9.50"], /must be QUANTITY:PRICE/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    results.forEach((r, i) => expectUsageError(r, cases[i][1]));
    expect(await db().contractPrice.count({ where: { skuId: sku.id } })).toBe(0);
    expect(await db().skuPriceTier.count({ where: { skuId: sku.id } })).toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).creditLimitCents).toBe(0n);
    // Refusals of the database's facts are exit 1.
    const unknown = await cli("price:contract:set", "--email", "nobody@example.test", "--sku-code", code, "--price", "1");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user with email nobody@example.test/);
  });
});
