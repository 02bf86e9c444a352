import { pathOf } from "../../lib/protocol/endpoints";
import { AMOUNT_WIRE_PATTERN } from "../../lib/protocol/wire-responses";
import type { CategoriesAnswer, PingAnswer, ProductAnswer, ProductPageAnswer } from "./answers";
import type { Check } from "./checks-auth";
import { type Context, expectError, expectOk, expectThat } from "./context";

// Catalogue (sections 2.2-2.4, 4.2-4.4; D3, D10-D15), order-read isolation
// (D20, D23) and the create-order validation rules (D17), sent with an SKU id
// no server can sell, so that even a lax server places no order.

const UNSELLABLE_SKU = 2_147_483_647;
const MISSING_ID = 2_147_483_000;

/** D3: every amount field of a product and its SKUs is a string with two decimals. */
function amountProblems(p: ProductAnswer): string[] {
  const out: string[] = [];
  const test = (where: string, v: unknown) => {
    if (typeof v !== "string" || !AMOUNT_WIRE_PATTERN.test(v)) out.push(`${where} = ${JSON.stringify(v)}`);
  };
  test(`product ${p.id} price_amount`, p.price_amount);
  test(`product ${p.id} original_price`, p.original_price);
  for (const s of p.skus ?? []) test(`sku ${s.id} price_amount`, s.price_amount);
  return out;
}

async function firstPage(ctx: Context, query = "") {
  const r = await ctx.send<ProductPageAnswer>({ path: pathOf("listProducts") + query });
  expectOk(r, `GET /products${query}`);
  return r.json;
}

const createWith = (ctx: Context, body: string) => ctx.send({ method: "POST", path: pathOf("createOrder"), body });

export const catalogChecks: Check[] = [
  {
    name: "D3: amounts are strings with exactly two decimals (ping balance, product and SKU prices)",
    run: async (ctx) => {
      const ping = await ctx.send<PingAnswer>({ path: pathOf("ping") });
      const problems =
        typeof ping.json?.balance === "string" && AMOUNT_WIRE_PATTERN.test(ping.json.balance)
          ? []
          : [`balance = ${JSON.stringify(ping.json?.balance)}`];
      const page = await firstPage(ctx, "?page_size=100&include_inactive=true");
      for (const p of page.items ?? []) problems.push(...amountProblems(p));
      expectThat(problems.length === 0, problems.slice(0, 3).join("; "));
    },
  },
  {
    name: "section 4.2: categories list; every parent_id is 0 or a listed category",
    run: async (ctx) => {
      const r = await ctx.send<CategoriesAnswer>({ path: pathOf("listCategories") });
      expectOk(r, "GET /categories");
      const ids = new Set(r.json.categories.map((c) => c.id));
      const orphans = r.json.categories.filter((c) => c.parent_id !== 0 && !ids.has(c.parent_id));
      expectThat(orphans.length === 0, `orphan categories: ${orphans.map((c) => c.id).join(", ")}`);
    },
  },
  {
    name: "D10: products defaults are page 1, page_size 50, includes_inactive false",
    run: async (ctx) => {
      const p = await firstPage(ctx);
      expectThat(
        p.page === 1 && p.page_size === 50 && p.includes_inactive === false,
        `got page ${p.page}, page_size ${p.page_size}, includes_inactive ${p.includes_inactive}`,
      );
      expectThat(p.items.length === Math.min(50, p.total), `items ${p.items.length} for total ${p.total}`);
    },
  },
  {
    name: "D10: paging slices the list and a page past the end is empty",
    run: async (ctx) => {
      const all = await firstPage(ctx, "?page_size=100");
      const one = await firstPage(ctx, "?page=2&page_size=1");
      const expected = all.items[1]?.id;
      expectThat(
        one.items.length === (expected === undefined ? 0 : 1) && one.items[0]?.id === expected,
        `page 2 of size 1 is not the second product`,
      );
      const past = await firstPage(ctx, `?page=${all.total + 2}&page_size=1`);
      expectThat(past.items.length === 0 && past.total === all.total, `a page past the end has ${past.items.length} items`);
    },
  },
  {
    name: "D10: out-of-range paging parameters (P: 400 bad_request; U: clamped, malformed means default)",
    run: async (ctx) => {
      if (ctx.opts.profile === "P") {
        for (const q of ["?page_size=101", "?page=0", "?page_size=abc", "?include_inactive=maybe"])
          expectError(await ctx.send({ path: pathOf("listProducts") + q }), 400, "bad_request");
      } else {
        const big = await firstPage(ctx, "?page_size=1000");
        const bad = await firstPage(ctx, "?page=abc&page_size=x");
        expectThat(big.page_size === 100, `page_size=1000 gave ${big.page_size}`);
        expectThat(bad.page === 1 && bad.page_size === 50, `malformed values gave page ${bad.page}, page_size ${bad.page_size}`);
      }
    },
  },
  {
    name: "D11/D12/D13: product detail equals its list item; has_sku and stock figures agree",
    run: async (ctx) => {
      const page = await firstPage(ctx, "?page_size=100&include_inactive=true");
      expectThat(page.items.length > 0, "the catalogue is empty: nothing to compare");
      for (const item of page.items.slice(0, 5)) {
        const d = await ctx.send({ path: pathOf("getProduct", item.id) });
        expectOk(d, `GET /products/${item.id}`);
        expectThat(
          JSON.stringify({ ok: true, ...item }) === d.text || JSON.stringify(d.json) === JSON.stringify({ ok: true, ...item }),
          `product ${item.id}: detail differs from the list item`,
        );
        expectThat(
          item.has_sku === (item.skus.length > 1 || (item.skus.length === 1 && Object.keys(item.skus[0].spec_values).length > 0)),
          `product ${item.id}: has_sku`,
        );
        for (const s of item.skus) {
          const ok =
            s.stock_status === "unlimited"
              ? s.stock_quantity === -1
              : s.stock_status === "available"
                ? s.stock_quantity > 0
                : s.stock_quantity === 0;
          expectThat(ok, `sku ${s.id}: ${s.stock_status} with quantity ${s.stock_quantity}`);
        }
      }
    },
  },
  {
    name: "D11: an unknown product is 404 (P product_not_found, U product_unavailable); a non-numeric id 400",
    run: async (ctx) => {
      expectError(
        await ctx.send({ path: pathOf("getProduct", MISSING_ID) }),
        404,
        ctx.opts.profile === "P" ? "product_not_found" : "product_unavailable",
      );
      expectError(await ctx.send({ path: pathOf("getProduct", "abc") }), 400, "bad_request");
    },
  },
  {
    name: "D20/D23: unknown orders are 404 order_not_found for read and cancel; a non-numeric id 400",
    run: async (ctx) => {
      expectError(await ctx.send({ path: pathOf("getOrder", MISSING_ID) }), 404, "order_not_found");
      expectError(await ctx.send({ method: "POST", path: pathOf("cancelOrder", MISSING_ID), body: "{}" }), 404, "order_not_found");
      expectError(await ctx.send({ path: pathOf("getOrder", "abc") }), 400, "bad_request");
    },
  },
  {
    name: "D17/D32: create-order validation (missing field, limits, unsellable SKU) is 400",
    run: async (ctx) => {
      const no = `CONF-${Date.now()}`;
      expectError(await createWith(ctx, JSON.stringify({ sku_id: UNSELLABLE_SKU, quantity: 1 })), 400, "bad_request");
      expectError(
        await createWith(ctx, JSON.stringify({ downstream_order_no: "x".repeat(129), sku_id: UNSELLABLE_SKU, quantity: 1 })),
        400,
        "bad_request",
      );
      expectError(
        await createWith(ctx, JSON.stringify({ downstream_order_no: no, sku_id: UNSELLABLE_SKU, quantity: 0 })),
        400,
        "bad_request",
      );
      expectError(
        await createWith(ctx, JSON.stringify({ downstream_order_no: no, sku_id: UNSELLABLE_SKU, quantity: 1_000_001 })),
        400,
        "bad_request",
      );
      expectError(
        await createWith(ctx, JSON.stringify({ downstream_order_no: no, sku_id: UNSELLABLE_SKU, quantity: 1 })),
        400,
        "sku_unavailable",
      );
    },
  },
  {
    name: "D17: Profile P strictness (unknown field, callback_url, duplicate key, non-object)",
    run: async (ctx) => {
      if (ctx.opts.profile !== "P") return;
      const no = `CONF-${Date.now()}`;
      expectError(
        await createWith(ctx, JSON.stringify({ downstream_order_no: no, sku_id: UNSELLABLE_SKU, quantity: 1, extra: 1 })),
        400,
        "bad_request",
      );
      expectError(
        await createWith(
          ctx,
          JSON.stringify({ downstream_order_no: no, sku_id: UNSELLABLE_SKU, quantity: 1, callback_url: "https://example.com/cb" }),
        ),
        400,
        "bad_request",
      );
      expectError(
        await createWith(ctx, `{"downstream_order_no":"${no}","sku_id":${UNSELLABLE_SKU},"quantity":1,"quantity":2}`),
        400,
        "invalid_json",
      );
      expectError(await createWith(ctx, "[1]"), 400, "bad_request");
    },
  },
];
