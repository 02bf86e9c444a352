import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSupplierClient, SupplierApiError, signedHeaders, verifyCallback, waitForOrder } from "./client";
import { verifySignature } from "./signing";
import { stringMatching } from "@/lib/testing/matchers";

// Issue 11.4: the downstream client against a scripted loopback server.

interface Seen {
  method: string;
  path: string;
  body: string;
  timestamp: string;
  signatureValid: boolean;
}
type Script = (seen: Seen, n: number) => { status: number; body?: unknown; headers?: Record<string, string> } | "drop";

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

const SECRET = "s3cret";
const order = (status: string, extra: object = {}) => ({
  ok: true,
  order_id: 7,
  order_no: "SK1",
  downstream_order_no: "DS-1",
  status,
  amount: "12.30",
  currency: "CNY",
  trace_id: "",
  error_message: null,
  items: [{ product_id: 1, sku_id: 2, quantity: 1, unit_price: "12.30", total_price: "12.30" }],
  ...extra,
});

async function scripted(script: Script) {
  const seen: Seen[] = [];
  // A failure inside the handler fails the test by the client's answer; nothing else awaits it.
  const server = http.createServer((req, res) => void answer(req, res));
  async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const timestamp = String(req.headers["svc-timestamp"]);
    const s = {
      method: req.method!,
      path: req.url!,
      body,
      timestamp,
      signatureValid: verifySignature({
        method: req.method!,
        path: req.url!,
        timestamp,
        body,
        secret: SECRET,
        signature: String(req.headers["svc-signature"]),
      }),
    };
    seen.push(s);
    const out = script(s, seen.length);
    if (out === "drop") return req.socket.destroy();
    res.writeHead(out.status, { "content-type": "application/json", ...out.headers }).end(JSON.stringify(out.body ?? {}));
  }
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  close = () => new Promise((r) => server.close(() => r()));
  const sleeps: number[] = [];
  const client = createSupplierClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: "k",
    apiSecret: SECRET,
    profile: "P",
    sleep: (ms) => Promise.resolve(void sleeps.push(ms)),
  });
  const sleep = (ms: number) => Promise.resolve(void sleeps.push(ms));
  return { client, seen, sleeps, sleep };
}

const created = {
  ...order("processing"),
  items: [{ product_id: 1, sku_id: 2, title: { "zh-CN": "", en: "" }, quantity: 1, unit_price: "12.30", total_price: "12.30" }],
};
const d1 = (code: string) => ({ ok: false, error_code: code, error_message: "m" });

describe("issue 11.4: createOrder retries safely (D18)", () => {
  it("after a dropped connection, a 503 and a 429 it resends the same number and body, freshly signed, honouring Retry-After", async () => {
    const { client, seen, sleeps } = await scripted((_s, n) =>
      n === 1
        ? "drop"
        : n === 2
          ? { status: 503, body: d1("internal_error") }
          : n === 3
            ? { status: 429, body: d1("rate_limited"), headers: { "retry-after": "7" } }
            : { status: 200, body: created },
    );
    const o = await client.createOrder({ downstream_order_no: "DS-1", sku_id: 2, quantity: 1 });
    expect(o.order_id).toBe(7);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((s) => s.body))).toEqual(new Set(['{"downstream_order_no":"DS-1","sku_id":2,"quantity":1}']));
    expect(seen.every((s) => s.signatureValid)).toBe(true);
    expect(new Set(seen.map((s) => s.timestamp)).size).toBe(4);
    expect(sleeps[2]).toBe(7000);
  });

  it("does not retry a 400 or a 409, and gives up after the attempts allowed", async () => {
    const conflict = await scripted(() => ({ status: 409, body: d1("idempotency_conflict") }));
    await expect(conflict.client.createOrder({ downstream_order_no: "DS-1", sku_id: 2, quantity: 1 })).rejects.toMatchObject({
      status: 409,
      code: "idempotency_conflict",
    });
    expect(conflict.seen).toHaveLength(1);
    await close!();
    const down = await scripted(() => ({ status: 500, body: d1("internal_error") }));
    await expect(down.client.createOrder({ downstream_order_no: "DS-1", sku_id: 2, quantity: 1 })).rejects.toBeInstanceOf(SupplierApiError);
    expect(down.seen).toHaveLength(5);
  });

  it("rejects a success body of the wrong shape (an amount as a number)", async () => {
    const { client } = await scripted(() => ({ status: 200, body: { ...created, amount: 12.3 } }));
    await expect(client.createOrder({ downstream_order_no: "DS-1", sku_id: 2, quantity: 1 })).rejects.toThrow(/amount/);
  });
});

describe("issue 11.4: waitForOrder polls with bounded back-off (section 4.6)", () => {
  it("polls until delivered, doubling the wait up to the cap, through a transient 503", async () => {
    const { client, seen, sleeps, sleep } = await scripted((_s, n) =>
      n === 2
        ? { status: 503, body: d1("internal_error") }
        : n < 6
          ? { status: 200, body: order("processing") }
          : {
              status: 200,
              body: order("delivered", { fulfillment: { type: "card_key", status: "delivered", payload: "K", delivery_data: ["K"] } }),
            },
    );
    const o = await waitForOrder(client, 7, { maxDelayMs: 4000, sleep });
    expect(o.status).toBe("delivered");
    expect(seen.every((s) => s.method === "GET" && s.path === "/api/v1/provider/orders/7")).toBe(true);
    expect(sleeps).toEqual([1000, 2000, 4000, 4000, 4000]);
  });

  it("returns a failed order and stops at a 404", async () => {
    expect(
      (await waitForOrder((await scripted(() => ({ status: 200, body: order("failed", { error_message: "out of stock" }) }))).client, 7))
        .status,
    ).toBe("failed");
    await close!();
    const { client } = await scripted(() => ({ status: 404, body: d1("order_not_found") }));
    await expect(waitForOrder(client, 7)).rejects.toMatchObject({ code: "order_not_found" });
  });
});

describe("issue 11.4: verifyCallback (section 6, D27)", () => {
  const event = {
    event: "order.updated",
    ok: true,
    order_id: 7,
    order_no: "SK1",
    downstream_order_no: "DS-1",
    status: "delivered",
    amount: "1.00",
    currency: "CNY",
    timestamp: 1763712000,
  };
  const raw = JSON.stringify(event);
  const path = "/hooks/supplier";
  const now = 1763712000;
  const headers = (body = raw, p = path, ts = now, secret = SECRET) =>
    signedHeaders({ apiKey: "k", apiSecret: secret }, "POST", p, body, ts);

  it("returns the typed event for a correctly signed callback (query string not signed)", () => {
    expect(verifyCallback(raw, headers(), SECRET, `${path}?x=1`, { now })).toEqual({ ok: true, event, apiKey: "k" });
    expect(verifyCallback(Buffer.from(raw), new Headers(headers()), SECRET, path, { now: now + 59 }).ok).toBe(true);
  });

  it("issue 12.2: also verifies a catalog.updated event (same scheme), and refuses one of more than 500 products", () => {
    const sku = { id: 3, price_amount: "8.50", stock_status: "available", stock_quantity: 10, is_active: true };
    const product = { id: 2, updated_at: "2026-11-22T17:44:31.123Z", is_active: true, price_amount: "9.00", skus: [sku] };
    const catalog = { event: "catalog.updated", ok: true, timestamp: now, products: [product] };
    const body = JSON.stringify(catalog);
    expect(verifyCallback(body, headers(body), SECRET, path, { now })).toEqual({ ok: true, event: catalog, apiKey: "k" });
    const tooMany = JSON.stringify({ ...catalog, products: Array.from({ length: 501 }, () => product) });
    expect(verifyCallback(tooMany, headers(tooMany), SECRET, path, { now })).toMatchObject({
      ok: false,
      error: stringMatching(/products/),
    });
  });

  it("refuses a wrong secret, another path, a tampered body, a stale timestamp, a missing header and a wrong shape", () => {
    expect(verifyCallback(raw, headers(raw, path, now, "other"), SECRET, path, { now })).toEqual({ ok: false, error: "bad signature" });
    expect(verifyCallback(raw, headers(raw, "/other"), SECRET, path, { now })).toEqual({ ok: false, error: "bad signature" });
    expect(verifyCallback(raw.replace("1.00", "9.00"), headers(), SECRET, path, { now }).ok).toBe(false);
    expect(verifyCallback(raw, headers(), SECRET, path, { now: now + 61 })).toEqual({ ok: false, error: "timestamp outside the window" });
    expect(verifyCallback(raw, { ...headers(), "Svc-Signature": undefined }, SECRET, path, { now })).toEqual({
      ok: false,
      error: "missing Svc-* header",
    });
    const bad = JSON.stringify({ ...event, amount: 1 });
    expect(verifyCallback(bad, headers(bad), SECRET, path, { now })).toMatchObject({ ok: false, error: stringMatching(/amount/) });
  });
});
