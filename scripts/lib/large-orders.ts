// Issue 40.3 (decision 0095): one 10,000-key order, then one 100,000-key order,
// Profile U create, each timed to the last byte of its answer (a large answer
// is streamed, chunked). bench-orders.ts runs it as its last phase (BENCH_LARGE_SKU_ID).
import crypto from "node:crypto";
import { pathOf } from "../../lib/protocol/endpoints";
import { PROFILE_PREFIXES } from "../../lib/protocol/profiles";
import { makeAgent, signedHttpRequest } from "./signed-fetch";

export interface LargeOrderResult {
  keys: number;
  seconds: number;
  bytes: number;
  target_seconds: number;
  met: boolean;
}

/** The targets on two cores: 10,000 keys in 0.5 s, 100,000 in 2 s. */
export const LARGE_ORDER_TARGETS: readonly { keys: number; target_seconds: number }[] = [
  { keys: 10_000, target_seconds: 0.5 },
  { keys: 100_000, target_seconds: 2 },
];

export async function largeOrderPhase(opts: {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  skuId: number;
  targets?: readonly { keys: number; target_seconds: number }[];
}): Promise<LargeOrderResult[]> {
  const creds = { apiKey: opts.apiKey, apiSecret: opts.apiSecret };
  const url = new URL(`${opts.baseUrl}${PROFILE_PREFIXES.U[0]}${pathOf("createOrder")}`);
  const agent = makeAgent(1);
  const run = crypto.randomBytes(4).toString("hex");
  const results: LargeOrderResult[] = [];
  try {
    for (const [i, t] of (opts.targets ?? LARGE_ORDER_TARGETS).entries()) {
      const body = JSON.stringify({ downstream_order_no: `bench-large-${run}-${i}`, sku_id: opts.skuId, quantity: t.keys });
      const started = performance.now();
      const res = await signedHttpRequest(agent, creds, url, "POST", body); // resolves on the answer's last byte
      const seconds = (performance.now() - started) / 1000;
      if (res.status !== 200) throw new Error(`large order of ${t.keys}: HTTP ${res.status} ${res.body.toString("utf8").slice(0, 200)}`);
      const wire = JSON.parse(res.body.toString("utf8")) as {
        status?: string;
        fulfillment?: { delivery_data?: string[]; payload?: string };
      };
      const lines = wire.fulfillment?.delivery_data ?? [];
      if (wire.status !== "delivered" || lines.length !== t.keys)
        throw new Error(`large order of ${t.keys}: ${wire.status}, ${lines.length} keys`);
      if (new Set(lines).size !== lines.length) throw new Error(`large order of ${t.keys}: a key repeats`);
      if (wire.fulfillment?.payload !== lines.join("\n")) throw new Error(`large order of ${t.keys}: payload differs from delivery_data`);
      const s = Math.round(seconds * 1000) / 1000;
      results.push({
        keys: t.keys,
        seconds: s,
        bytes: res.body.length,
        target_seconds: t.target_seconds,
        met: seconds <= t.target_seconds,
      });
    }
  } finally {
    agent.destroy();
  }
  return results;
}
