import { pathOf } from "../../lib/protocol/endpoints";
import { parseAmount } from "../../lib/protocol/amount";
import { createSupplierClient, waitForOrder } from "../../lib/protocol/client";
import type { OrderCreatedAnswer, OrderReadAnswer, PingAnswer } from "./answers";
import type { Check } from "./checks-auth";
import { type Context, expectError, expectOk, expectThat } from "./context";

// With --allow-orders --sku-id N (spends points): creation (D19), idempotency
// (D18), the replayed create (D8, P), polling to the end (4.6, D20, D21) and
// cancel (D23). The purchase goes through the downstream client of
// lib/protocol/client.ts, as a shop would make it.

interface OrderState {
  no: string;
  body: string;
  created?: OrderCreatedAnswer;
  final?: OrderReadAnswer;
}

const state = new WeakMap<Context, OrderState>();
/** The order this run created and read to its end (the after-sales checks claim a line of it). */
export const createdOrder = (ctx: Context): OrderReadAnswer | undefined => state.get(ctx)?.final;

const orderOf = (ctx: Context) => {
  const s = state.get(ctx);
  expectThat(s?.created, "no order was created (see the create check)");
  return s as Required<OrderState>;
};

export const orderChecks: Check[] = [
  {
    name: "D19: create order answers the order (P: processing, error_message null, titled items); points debited once",
    run: async (ctx) => {
      const no = `CONF-${ctx.opts.profile}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
      const body = JSON.stringify({ downstream_order_no: no, sku_id: ctx.opts.skuId, quantity: 1, trace_id: "conformance" });
      state.set(ctx, { no, body });
      const before = (await ctx.send<PingAnswer>({ path: pathOf("ping") })).json?.balance;
      const r = await ctx.send<OrderCreatedAnswer>({ method: "POST", path: pathOf("createOrder"), body });
      expectOk(r, "POST /orders");
      const o = r.json;
      state.get(ctx)!.created = o;
      expectThat(o.downstream_order_no === no && o.trace_id === "conformance", "downstream_order_no or trace_id not echoed");
      expectThat(
        o.items?.[0]?.sku_id === ctx.opts.skuId && o.items[0].quantity === 1 && o.items[0].title,
        "items do not show the SKU, quantity and title",
      );
      if (ctx.opts.profile === "P")
        expectThat(o.status === "processing" && o.error_message === null, `P create: status ${o.status}, error_message ${o.error_message}`);
      const after = (await ctx.send<PingAnswer>({ path: pathOf("ping") })).json?.balance;
      expectThat(before !== undefined && after !== undefined, "ping answered no balance");
      expectThat(
        parseAmount(before) - parseAmount(after) === parseAmount(o.amount),
        `balance ${before} → ${after} for an order of ${o.amount}`,
      );
    },
  },
  {
    name: "D18: the same downstream_order_no with the same parameters returns the same order, no second debit",
    run: async (ctx) => {
      const { body, created } = orderOf(ctx);
      const before = (await ctx.send<PingAnswer>({ path: pathOf("ping") })).json?.balance;
      const again = await ctx.send<OrderCreatedAnswer>({ method: "POST", path: pathOf("createOrder"), body });
      expectOk(again, "repeated create");
      expectThat(again.json.order_id === created.order_id, `a second order ${again.json.order_id} was made`);
      const after = (await ctx.send<PingAnswer>({ path: pathOf("ping") })).json?.balance;
      expectThat(before === after, `balance changed ${before} → ${after}`);
    },
  },
  {
    name: "D18: the same downstream_order_no with other parameters is 409 idempotency_conflict",
    run: async (ctx) => {
      const { no } = orderOf(ctx);
      const other = JSON.stringify({ downstream_order_no: no, sku_id: ctx.opts.skuId, quantity: 2, trace_id: "conformance" });
      expectError(await ctx.send({ method: "POST", path: pathOf("createOrder"), body: other }), 409, "idempotency_conflict");
    },
  },
  {
    name: "D8: Profile P answers a replayed create that matches its order with that order (read-only)",
    run: async (ctx) => {
      if (ctx.opts.profile !== "P") return;
      const { body, created } = orderOf(ctx);
      const timestamp = ctx.timestamp("POST", `${ctx.prefix}/orders`);
      const first = await ctx.send<OrderCreatedAnswer>({ method: "POST", path: pathOf("createOrder"), body, timestamp });
      const replay = await ctx.send<OrderCreatedAnswer>({ method: "POST", path: pathOf("createOrder"), body, timestamp });
      expectThat(
        first.json?.order_id === created.order_id && replay.status === 200 && replay.json?.order_id === created.order_id,
        `replay answered ${replay.status} ${replay.text.slice(0, 100)}`,
      );
    },
  },
  {
    name: "4.6/D20/D21: polling the order reaches delivered or failed; the read shows the fulfillment",
    run: async (ctx) => {
      const { created } = orderOf(ctx);
      const client = createSupplierClient({ ...ctx.opts, profile: ctx.opts.profile });
      const final: OrderReadAnswer = await waitForOrder(client, created.order_id, {
        timeoutMs: 60_000,
        initialDelayMs: 250,
        maxDelayMs: 2000,
      });
      expectThat(final.order_id === created.order_id && final.amount === created.amount, "the read differs from the created order");
      state.get(ctx)!.final = final;
      if (final.status === "delivered")
        expectThat((final.fulfillment?.delivery_data?.length ?? 0) > 0, "delivered without fulfillment.delivery_data");
      if (ctx.opts.profile === "P")
        expectThat(
          final.items.every((i) => !("title" in i)),
          "Profile P read items carry title",
        );
    },
  },
  {
    name: "D23: cancelling your own order is 409 cancel_not_allowed",
    run: async (ctx) => {
      const { created } = orderOf(ctx);
      expectError(
        await ctx.send({ method: "POST", path: pathOf("cancelOrder", created.order_id), body: ctx.opts.profile === "P" ? "{}" : "" }),
        409,
        "cancel_not_allowed",
      );
    },
  },
];
