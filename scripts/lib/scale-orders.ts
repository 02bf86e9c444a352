// The write side of `npm run bench:catalog-scale`: orders placed open-loop at
// a fixed rate on random SKUs, and the staleness probe. Each SKU's stock is
// known to the bench (its keys at import, minus the orders it answered: the
// bench is the only buyer), so after an order is answered a probe polls the
// product detail until that SKU's stock_quantity is at most what the bench
// knows it to be then; the staleness is the time from the answer until then.
import http from "node:http";
import { percentile } from "./load";
import { makeAgent, signedHttpRequest, type SupplierCredentials } from "./signed-fetch";
import { pathOf } from "../../lib/protocol/endpoints";
import { PROFILE_PREFIXES } from "../../lib/protocol/profiles";

export interface ScaleSku {
  skuId: number;
  productId: number;
  stock: number;
}
export interface OrderFigures {
  placed: number;
  delivered: number;
  errors: number;
  error_kinds: Record<string, number>;
  achieved_per_second: number;
  p50_ms: number;
  p99_ms: number;
  staleness: { probes: number; max_ms: number; p99_ms: number; p50_ms: number; unresolved: number };
}

const PROBE_INTERVAL_MS = 50;
const PROBE_GIVE_UP_MS = 10_000;

/**
 * Connections of their own for orders and for probes, as separate downstreams
 * would have: sharing the page clients' pool, slow orders once held every
 * socket and the probes' polls queued in this process behind them, which the
 * staleness counted. Made once and used by the warm-up and the measurement,
 * so no figure includes opening connections to a server that is already busy.
 */
export function orderAgents(rate: number, probeEvery: number): { order: http.Agent; probe: http.Agent } {
  return { order: makeAgent(64), probe: makeAgent(Math.max(8, Math.ceil((4 * rate) / probeEvery))) };
}

export async function placeOrders({
  agents,
  creds,
  baseUrl,
  skus,
  seconds,
  rate,
  probeEvery,
  run,
}: {
  agents: { order: http.Agent; probe: http.Agent };
  creds: SupplierCredentials;
  baseUrl: string;
  skus: ScaleSku[];
  seconds: number;
  rate: number;
  probeEvery: number;
  run: string;
}): Promise<OrderFigures> {
  const ordersUrl = new URL(`${baseUrl}${PROFILE_PREFIXES.U[0]}${pathOf("createOrder")}`);
  const latencies: number[] = [];
  const staleness: number[] = [];
  const errorKinds: Record<string, number> = {};
  let delivered = 0;
  let unresolved = 0;
  const inFlight: Promise<void>[] = [];

  const probe = async (sku: ScaleSku, answeredAt: number) => {
    const want = sku.stock;
    const url = new URL(`${baseUrl}${PROFILE_PREFIXES.U[0]}${pathOf("getProduct", sku.productId)}`);
    for (;;) {
      const res = await signedHttpRequest(agents.probe, creds, url);
      const now = performance.now();
      if (res.status === 200) {
        const seen = (JSON.parse(res.body.toString("utf8")) as { skus: { id: number; stock_quantity: number }[] }).skus.find(
          (s) => s.id === sku.skuId,
        );
        if (seen && seen.stock_quantity <= want) return void staleness.push(now - answeredAt);
      }
      if (now - answeredAt > PROBE_GIVE_UP_MS) return void unresolved++;
      await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS));
    }
  };

  const order = async (i: number) => {
    const sku = skus[Math.floor(Math.random() * skus.length)];
    const body = JSON.stringify({ downstream_order_no: `scale-${run}-${i}`, sku_id: sku.skuId, quantity: 1 });
    const t0 = performance.now();
    let kind: string;
    try {
      const res = await signedHttpRequest(agents.order, creds, ordersUrl, "POST", body);
      const answer = JSON.parse(res.body.toString("utf8")) as { status?: string; error_code?: string };
      kind = res.status === 200 && answer.status === "delivered" ? "ok" : `http:${res.status}:${answer.status ?? answer.error_code}`;
    } catch (err) {
      kind = `network:${(err as { code?: string }).code ?? "error"}`;
    }
    const answeredAt = performance.now();
    latencies.push(answeredAt - t0);
    if (kind !== "ok") return void (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);
    delivered++;
    sku.stock--;
    if (i % probeEvery === 0) await probe(sku, answeredAt);
  };

  // Open loop: order i is sent at start + i/rate whatever the answers before it.
  const started = performance.now();
  const total = Math.floor(seconds * rate);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(order(i));
  }
  const sendSeconds = (performance.now() - started) / 1000;
  await Promise.all(inFlight);
  const sorted = latencies.sort((a, b) => a - b);
  const stale = staleness.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    placed: total,
    delivered,
    errors: total - delivered,
    error_kinds: errorKinds,
    achieved_per_second: r(total / sendSeconds),
    p50_ms: r(percentile(sorted, 50)),
    p99_ms: r(percentile(sorted, 99)),
    staleness: {
      probes: stale.length,
      max_ms: r(stale.at(-1) ?? 0),
      p99_ms: r(percentile(stale, 99)),
      p50_ms: r(percentile(stale, 50)),
      unresolved,
    },
  };
}
