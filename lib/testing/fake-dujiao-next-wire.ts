import type http from "node:http";
import {
  DUJIAO_CALLBACK_SIGNED_PATH,
  DUJIAO_HEADER_API_KEY,
  DUJIAO_HEADER_SIGNATURE,
  DUJIAO_HEADER_TIMESTAMP,
  DUJIAO_TIMESTAMP_WINDOW_SECONDS,
} from "../protocol/dujiao-next";
import { signRequest, verifySignature } from "../protocol/signing";

// The wire of the fake Dujiao-Next supplier (fake-dujiao-next.ts): its one
// product, its order view, its auth check and its callback, as their Go code
// writes them (upstream_handler.go, router/upstream_auth.go,
// downstream_callback_service.go).

export const SKU = { id: 501, productId: 51, price: "3.50" };
export const FAKE_DUJIAO_SKU_ID = SKU.id;

export interface FakeOrder {
  id: number;
  orderNo: string;
  downstreamOrderNo: string;
  skuId: number;
  quantity: number;
  status: string;
  amount: string;
  callbackUrl: string;
  payload: string | null;
}

export interface FakeCallback {
  orderId: number;
  status: number;
  ok: boolean;
}

interface Credential {
  apiKey: string;
  apiSecret: string;
}

const fulfillmentOf = (o: FakeOrder) =>
  o.payload === null
    ? undefined
    : { type: "auto", status: "delivered", payload: o.payload, delivery_data: {}, delivered_at: new Date().toISOString() };

/** GetOrder's answer. */
export const orderDetail = (o: FakeOrder, currency: string) => ({
  ok: true,
  order_id: o.id,
  order_no: o.orderNo,
  status: o.status,
  amount: o.amount,
  refunded_amount: o.status === "refunded" || o.status === "canceled" ? o.amount : "0.00",
  currency,
  refund_records: [],
  ...(fulfillmentOf(o) ? { fulfillment: fulfillmentOf(o) } : {}),
  items: [{ product_id: SKU.productId, sku_id: o.skuId, title: { "zh-CN": "点卡" }, quantity: o.quantity, unit_price: SKU.price }],
});

/** SendCallback: the buyer's key, the literal path, received only on 200 with ok:true. */
export async function sendDujiaoCallback(o: FakeOrder, f: Credential & { callbackSkewSeconds: number }): Promise<FakeCallback> {
  const delivered = ["delivered", "completed"].includes(o.status);
  const ts = Math.floor(Date.now() / 1000) + f.callbackSkewSeconds;
  const body = JSON.stringify({
    event: delivered ? "order.fulfilled" : "order.status_changed",
    order_id: o.id,
    order_no: o.orderNo,
    downstream_order_no: o.downstreamOrderNo,
    status: o.status,
    ...(fulfillmentOf(o) ? { fulfillment: fulfillmentOf(o) } : {}),
    timestamp: ts,
  });
  const res = await fetch(o.callbackUrl, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      [DUJIAO_HEADER_API_KEY]: f.apiKey,
      [DUJIAO_HEADER_TIMESTAMP]: String(ts),
      [DUJIAO_HEADER_SIGNATURE]: signRequest({
        method: "POST",
        path: DUJIAO_CALLBACK_SIGNED_PATH,
        timestamp: ts,
        body,
        secret: f.apiSecret,
      }),
    },
    body,
  });
  const answer = (await res.json().catch(() => null)) as { ok?: unknown } | null;
  return { orderId: o.id, status: res.status, ok: res.status === 200 && answer?.ok === true };
}

/** UpstreamAPIAuthMiddleware, in its order: [status, error_code] of a refusal, or null. */
export function authFailure(req: http.IncomingMessage, path: string, body: Buffer, f: Credential): [number, string] | null {
  const key = req.headers[DUJIAO_HEADER_API_KEY.toLowerCase()];
  const ts = req.headers[DUJIAO_HEADER_TIMESTAMP.toLowerCase()];
  const sig = req.headers[DUJIAO_HEADER_SIGNATURE.toLowerCase()];
  if (typeof key !== "string" || typeof ts !== "string" || typeof sig !== "string" || !key || !ts || !sig)
    return [401, "missing_auth_headers"];
  if (!/^-?\d+$/.test(ts)) return [401, "invalid_timestamp"];
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(ts)) > DUJIAO_TIMESTAMP_WINDOW_SECONDS) return [401, "timestamp_expired"];
  if (key !== f.apiKey) return [403, "invalid_api_key"];
  const method = req.method ?? "GET";
  if (!verifySignature({ method, path, timestamp: ts, body, secret: f.apiSecret, signature: sig })) return [401, "invalid_signature"];
  return null;
}

/** Their one product, as toUpstreamProductWithMemberPrice writes it. */
export const fakeProduct = () => ({
  id: SKU.productId,
  slug: "game-card",
  seo_meta: {},
  title: { "zh-CN": "游戏点卡", "en-US": "Game card" },
  description: { "zh-CN": "说明" },
  content: {},
  images: [],
  tags: [],
  price_amount: SKU.price,
  fulfillment_type: "auto",
  manual_form_schema: {},
  is_active: true,
  category_id: 5,
  skus: [
    {
      id: SKU.id,
      sku_code: "default",
      spec_values: {},
      price_amount: SKU.price,
      stock_status: "in_stock",
      stock_quantity: 100,
      is_active: true,
    },
  ],
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-02T00:00:00Z",
});
