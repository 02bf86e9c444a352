import type http from "node:http";
import { formatAmount, parseAmount } from "../protocol/amount";
import { authFailure, fakeProduct, orderDetail, sendDujiaoCallback, SKU, type FakeCallback, type FakeOrder } from "./fake-dujiao-next-wire";
import { startLoopbackServer } from "./loopback-server";

export { FAKE_DUJIAO_SKU_ID, type FakeCallback, type FakeOrder } from "./fake-dujiao-next-wire";

// A Dujiao-Next supplier on loopback (issue 37.3), answering as its Go server
// does (internal/http/handlers/upstream/upstream_handler.go, router/upstream_auth.go):
// its headers, its signature rule with ±60 s, its statuses and error codes, its
// JSON shapes; callbacks signed as downstream_callback_service.go signs them
// (the buyer's key, the literal path /api/v1/upstream/callback), counted as
// received only on HTTP 200 with ok:true. Like theirs, the duplicate check of
// downstream_order_no is a read before the insert, not a unique index: two
// creates of one number at once both make an order (createDelayMs widens that
// window), which is what the tests prove we never send.

export type FakeDecision = "hold" | "deliver" | "stock" | "payment_failed" | "internal_error";

export interface FakeDujiaoNext {
  origin: string;
  apiKey: string;
  apiSecret: string;
  orders: FakeOrder[];
  /** POST /orders received per downstream_order_no (refused and lost ones included). */
  creates: Map<string, number>;
  /** The most creates of one number in progress at once. */
  maxInFlight: Map<string, number>;
  callbacks: FakeCallback[];
  authFailures: string[];
  /** What a new number gets (a repeated number answers its order, as theirs does). */
  decide: (downstreamOrderNo: string) => FakeDecision;
  /** Numbers whose next create is processed but never answered (the socket is cut). */
  loseAnswer: Set<string>;
  createDelayMs: number;
  /** Drop our callbacks (a lost callback): the buyer must poll. */
  callbacksOff: boolean;
  /** Seconds added to a callback's timestamp (an old or future callback). */
  callbackSkewSeconds: number;
  /** Their SSRF check of callback_url (off by default: the tests' callbacks go to loopback). */
  refusePrivateCallbacks: boolean;
  currency: string;
  /** Replaces a path's 200 body (hostile answers), by "METHOD /path". */
  override: Map<string, string>;
  ordersOf(downstreamOrderNo: string): FakeOrder[];
  /** Delivers an order (one key per unit, one per line) and sends its callback. */
  deliver(orderId: number): Promise<void>;
  setStatus(orderId: number, status: string): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeDujiaoNext(opts: { apiKey?: string; apiSecret?: string; userId?: number } = {}): Promise<FakeDujiaoNext> {
  const f: FakeDujiaoNext = {
    origin: "",
    apiKey: opts.apiKey ?? "dn-key",
    apiSecret: opts.apiSecret ?? "dn-secret",
    orders: [],
    creates: new Map(),
    maxInFlight: new Map(),
    callbacks: [],
    authFailures: [],
    decide: () => "deliver",
    loseAnswer: new Set(),
    createDelayMs: 0,
    callbacksOff: false,
    callbackSkewSeconds: 0,
    refusePrivateCallbacks: false,
    currency: "CNY",
    override: new Map(),
    ordersOf: (no) => f.orders.filter((o) => o.downstreamOrderNo === no),
    deliver: async (id) => {
      const o = f.orders.find((x) => x.id === id)!;
      o.payload = Array.from({ length: o.quantity }, (_, i) => `DN-${o.orderNo}-${i + 1}`).join("\n");
      await f.setStatus(id, "completed");
    },
    setStatus: async (id, status) => {
      const o = f.orders.find((x) => x.id === id)!;
      o.status = status;
      if (o.callbackUrl && !f.callbacksOff) f.callbacks.push(await sendDujiaoCallback(o, f));
    },
    close: () => server.close(),
  };
  const inFlight = new Map<string, number>();

  const json = (res: http.ServerResponse, status: number, body: unknown): void =>
    void res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
  const fail = (res: http.ServerResponse, status: number, code: string): void =>
    json(res, status, { ok: false, error_code: code, error_message: `${code} (fake)` });

  const server = await startLoopbackServer((req, body, res) => {
    void handle(req, body, res).catch(() => res.destroy());
  });
  f.origin = server.origin;

  async function handle(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const route = `${req.method} ${url.pathname.replace(/^\/api\/v1\/upstream/, "")}`;
    const denied = authFailure(req, url.pathname, body, f);
    if (denied) {
      f.authFailures.push(denied[1]);
      return fail(res, denied[0], denied[1]);
    }
    const hostile = f.override.get(route);
    if (hostile !== undefined) return void res.writeHead(200, { "Content-Type": "application/json" }).end(hostile);
    if (route === "POST /ping")
      return json(res, 200, {
        ok: true,
        site_name: "Fake Dujiao",
        protocol_version: "1.0",
        user_id: opts.userId ?? 7,
        balance: "100.00",
        currency: f.currency,
        member_level: null,
      });
    if (route === "GET /categories")
      return json(res, 200, {
        ok: true,
        categories: [{ id: 5, parent_id: 0, slug: "cards", name: { "zh-CN": "点卡" }, icon: "", sort_order: 1 }],
      });
    if (route === "GET /products") {
      const size = Number(url.searchParams.get("page_size") ?? "20");
      const pageSize = size < 1 || size > 50 ? 50 : size;
      const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
      const items = page === 1 ? [fakeProduct()] : [];
      return json(res, 200, { ok: true, items, total: 1, page, page_size: pageSize });
    }
    const orderMatch = /^GET \/orders\/(\d+)$/.exec(route);
    if (orderMatch) {
      const o = f.orders.find((x) => x.id === Number(orderMatch[1]));
      return o ? json(res, 200, orderDetail(o, f.currency)) : fail(res, 404, "order_not_found");
    }
    if (route === "POST /orders") return createOrder(body, res);
    return fail(res, 404, "not_found");
  }

  async function createOrder(body: Buffer, res: http.ServerResponse): Promise<void> {
    let req: { sku_id?: unknown; quantity?: unknown; downstream_order_no?: unknown; callback_url?: unknown };
    try {
      req = JSON.parse(body.toString("utf8")) as typeof req;
    } catch {
      return fail(res, 400, "bad_request");
    }
    const no = typeof req.downstream_order_no === "string" ? req.downstream_order_no : "";
    f.creates.set(no, (f.creates.get(no) ?? 0) + 1);
    // validateCallbackURL: no loopback or private host (the tests' loopback callbacks pass unless asked).
    const cb = typeof req.callback_url === "string" ? req.callback_url : "";
    if (f.refusePrivateCallbacks && cb && /^https?:\/\/(localhost|127\.|10\.|192\.168\.|\[::1\])/.test(cb))
      return fail(res, 400, "invalid_callback_url");
    if (!Number.isInteger(req.sku_id) || (req.sku_id as number) < 1 || !Number.isInteger(req.quantity) || (req.quantity as number) < 1)
      return fail(res, 400, "bad_request");
    inFlight.set(no, (inFlight.get(no) ?? 0) + 1);
    f.maxInFlight.set(no, Math.max(f.maxInFlight.get(no) ?? 0, inFlight.get(no)!));
    try {
      // Their duplicate check: a read, then (much) later the insert.
      const existing = no ? f.ordersOf(no)[0] : undefined;
      if (f.createDelayMs) await new Promise((r) => setTimeout(r, f.createDelayMs));
      if (existing)
        return json(res, 200, {
          ok: true,
          order_id: existing.id,
          order_no: existing.orderNo,
          status: existing.status,
          amount: existing.amount,
          currency: f.currency,
        });
      if (req.sku_id !== SKU.id) return fail(res, 400, "sku_unavailable");
      const decision = f.decide(no);
      if (decision === "stock") return fail(res, 409, "insufficient_stock");
      if (decision === "internal_error") return fail(res, 500, "internal_error");
      const quantity = req.quantity as number;
      const o: FakeOrder = {
        id: 9000 + f.orders.length + 1,
        orderNo: `DN${Date.now()}${f.orders.length + 1}`,
        downstreamOrderNo: no,
        skuId: SKU.id,
        quantity,
        status: decision === "payment_failed" ? "canceled" : "paid",
        amount: formatAmount(parseAmount(SKU.price) * BigInt(quantity)),
        callbackUrl: typeof req.callback_url === "string" ? req.callback_url : "",
        payload: null,
      };
      f.orders.push(o);
      if (decision === "payment_failed")
        return json(res, 200, {
          ok: false,
          order_id: o.id,
          order_no: o.orderNo,
          status: "canceled",
          error_code: "payment_failed",
          error_message: "wallet payment failed: fake",
        });
      if (decision === "deliver") setTimeout(() => void f.deliver(o.id).catch(() => undefined), 50);
      if (f.loseAnswer.delete(no)) return void res.destroy();
      json(res, 200, { ok: true, order_id: o.id, order_no: o.orderNo, status: "paid", amount: o.amount, currency: f.currency });
    } finally {
      inFlight.set(no, inFlight.get(no)! - 1);
    }
  }

  return f;
}
