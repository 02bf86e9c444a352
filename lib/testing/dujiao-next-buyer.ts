import crypto from "node:crypto";
import type { z } from "zod";
import {
  DUJIAO_CALLBACK_SIGNED_PATH,
  DUJIAO_HEADER_API_KEY,
  DUJIAO_HEADER_SIGNATURE,
  DUJIAO_HEADER_TIMESTAMP,
  DUJIAO_TIMESTAMP_WINDOW_SECONDS,
  DujiaoCallbackSchema,
  DujiaoCategoriesSchema,
  DujiaoCreateOrderAnswerSchema,
  DujiaoOrderDetailSchema,
  DujiaoPingSchema,
  DujiaoProductDetailSchema,
  DujiaoProductPageSchema,
  dujiaoSignedHeaders,
  type DujiaoCallback,
} from "../protocol/dujiao-next";
import { signRequest } from "../protocol/signing";
import { startLoopbackServer } from "./loopback-server";

// A Dujiao-Next buyer as its Go source is (internal/upstream/dujiao_next.go,
// adapter.go; docs/peers/dujiao-next-docking.md): it signs the literal path
// /api/v1/upstream/... without the query, sends Content-Type only with a
// body, treats any status but 200 as a failure without reading the body, and
// decodes a 200 into its structs (a field of the wrong type fails the whole
// answer: the schemas in lib/protocol/dujiao-next.ts). Its callback receiver
// (upstream_handler.go HandleCallback) verifies as theirs does.

export class DujiaoRequestFailed extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upstream responded with status ${status}: ${body}`);
  }
}

export interface DujiaoBuyerOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Seconds to add to the clock when signing (a stale timestamp). */
  skewSeconds?: number;
}

export function dujiaoNextBuyer(opts: DujiaoBuyerOptions) {
  const base = opts.baseUrl.replace(/\/+$/, "");

  async function request<T>(method: "GET" | "POST", path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const bytes = body === undefined ? "" : JSON.stringify(body);
    const signPath = path.split("?")[0];
    const ts = Math.floor(Date.now() / 1000) + (opts.skewSeconds ?? 0);
    const headers: Record<string, string> = dujiaoSignedHeaders(opts, method, signPath, bytes, ts);
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : bytes });
    const text = await res.text();
    if (res.status !== 200) throw new DujiaoRequestFailed(res.status, text);
    return schema.parse(JSON.parse(text)); // encoding/json: a type mismatch fails the whole answer
  }

  return {
    ping: () => request("POST", "/api/v1/upstream/ping", DujiaoPingSchema),
    categories: () => request("GET", "/api/v1/upstream/categories", DujiaoCategoriesSchema),
    products: (q: { page: number; pageSize: number; updatedAfter?: Date }) =>
      request(
        "GET",
        `/api/v1/upstream/products?page=${q.page}&page_size=${q.pageSize}` +
          (q.updatedAfter ? `&updated_after=${q.updatedAfter.toISOString().replace(/\.\d{3}Z$/, "Z")}` : ""),
        DujiaoProductPageSchema,
      ),
    product: (id: number) => request("GET", `/api/v1/upstream/products/${id}`, DujiaoProductDetailSchema),
    createOrder: (body: {
      sku_id: number;
      quantity: number;
      manual_form_data?: Record<string, unknown>;
      downstream_order_no: string;
      trace_id: string;
      callback_url: string;
    }) => request("POST", "/api/v1/upstream/orders", DujiaoCreateOrderAnswerSchema, body),
    order: (id: number) => request("GET", `/api/v1/upstream/orders/${id}`, DujiaoOrderDetailSchema),
    cancel: (id: number) => request("POST", `/api/v1/upstream/orders/${id}/cancel`, DujiaoCreateOrderAnswerSchema),
  };
}

export interface DujiaoCallbackReceiver {
  url: string;
  /** Callbacks that passed their checks, decoded. */
  accepted: DujiaoCallback[];
  /** Requests refused, with their reason (their receiver's message). */
  refused: string[];
  /** What to answer an accepted callback; default their `{"ok":true,"message":"received"}`. */
  answer: () => { status: number; body: string };
  close: () => Promise<void>;
}

/** Their HandleCallback: our key's secret, their headers, the literal signed path, ±60 s; always HTTP 200. */
export async function startDujiaoCallbackReceiver(creds: { apiKey: string; apiSecret: string }): Promise<DujiaoCallbackReceiver> {
  const receiver: DujiaoCallbackReceiver = {
    url: "",
    accepted: [],
    refused: [],
    answer: () => ({ status: 200, body: JSON.stringify({ ok: true, message: "received" }) }),
    close: () => Promise.resolve(),
  };
  const server = await startLoopbackServer((req, body, res) => {
    const refuse = (message: string) => {
      receiver.refused.push(message);
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ ok: false, message }));
    };
    const key = req.headers[DUJIAO_HEADER_API_KEY.toLowerCase()];
    const ts = req.headers[DUJIAO_HEADER_TIMESTAMP.toLowerCase()];
    const sig = req.headers[DUJIAO_HEADER_SIGNATURE.toLowerCase()];
    if (typeof key !== "string" || typeof ts !== "string" || typeof sig !== "string") return refuse("missing authentication headers");
    if (!/^-?\d+$/.test(ts) || Math.abs(Number(ts) - Date.now() / 1000) > DUJIAO_TIMESTAMP_WINDOW_SECONDS)
      return refuse("timestamp expired");
    if (key !== creds.apiKey) return refuse("invalid api key");
    const expected = signRequest({ method: "POST", path: DUJIAO_CALLBACK_SIGNED_PATH, timestamp: ts, body, secret: creds.apiSecret });
    if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(sig.padEnd(expected.length).slice(0, expected.length)))) {
      return refuse("signature verification failed");
    }
    let payload: DujiaoCallback;
    try {
      payload = DujiaoCallbackSchema.parse(JSON.parse(body.toString("utf8")));
    } catch {
      return refuse("invalid request body");
    }
    if (!payload.downstream_order_no || !payload.status) return refuse("missing required fields");
    receiver.accepted.push(payload);
    const a = receiver.answer();
    res.writeHead(a.status, { "Content-Type": "application/json" }).end(a.body);
  });
  // Not their default path: the signature covers the literal /api/v1/upstream/callback whatever the URL.
  receiver.url = `${server.origin}/hooks/dujiao-next?site=a`;
  receiver.close = server.close;
  return receiver;
}
