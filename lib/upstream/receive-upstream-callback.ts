import crypto from "node:crypto";
import { db } from "../db/client";
import { log } from "../log";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP, TIMESTAMP_WINDOW_SECONDS } from "../protocol/headers";
import { UNAUTHORIZED_MESSAGE } from "../protocol/errors";
import { verifySignature } from "../protocol/signing";
import {
  DUJIAO_CALLBACK_SIGNED_PATH,
  DUJIAO_HEADER_API_KEY,
  DUJIAO_HEADER_SIGNATURE,
  DUJIAO_HEADER_TIMESTAMP,
  DUJIAO_TIMESTAMP_WINDOW_SECONDS,
  DujiaoCallbackSchema,
} from "../protocol/dujiao-next";
import { loadConnection } from "./connection";
import { enqueueJob } from "../jobs/enqueue-job";
import { enqueuePurchaseRun } from "./queue-purchase";
import { appError } from "../errors";
import { applyUpstreamCatalogEvent } from "./apply-upstream-catalog-event";

export interface UpstreamCallbackRequest {
  connectionId: number;
  method: string;
  /** The path of our callback URL as requested: what the upstream signed (section 5 rule 6). */
  path: string;
  headers: Headers;
  /** Reads the body (at most 1 MiB, within 15 s): called only once the headers passed (issue 22.2). */
  readBody: () => Promise<Buffer>;
}

// Issue 22.2, as the supplier API (decision 0028): the answer to a caller that
// fails the header checks ends its connection, so no body is waited for.
const unauthorized = () => appError("unauthorized", UNAUTHORIZED_MESSAGE, { headers: { Connection: "close" } });

/**
 * A Profile U upstream tells us an order changed (spec 6). Verified before
 * anything is read: the API key must be the connection's and the timestamp
 * within ±60 s before a byte of the body is read (issue 22.2), then the signature the HMAC of this connection's secret over our
 * callback path and the exact body. A connection can reach only its own
 * purchases (found by connection and our downstream_order_no). The body is not
 * trusted for delivery data: the callback only schedules an immediate poll of
 * the upstream order (run-purchase.ts), which reads the result over our own
 * signed request. Unknown connection, bad signature: 401; no such purchase of
 * this connection: 404 order_not_found. Issue 26.1: the same URL is the
 * catalogue webhook we register at the upstream (register-catalog-webhook.ts);
 * a `catalog.updated` event, signed alike, sets its SKUs' last known stock.
 * Issue 37.3: a Dujiao-Next supplier's callback (its headers, this
 * connection's key, ±60 s, signed over DUJIAO_CALLBACK_SIGNED_PATH whatever our
 * URL) is taken alike; its sender counts it received only on HTTP 200 with
 * `ok: true`, which is what an accepted callback answers.
 */
export async function receiveUpstreamCallback(
  req: UpstreamCallbackRequest,
): Promise<{ ok: true; polled: boolean } | { ok: true; stock_updated: number }> {
  // Issue 37.3: a Dujiao-Next supplier signs with its own headers, over the literal path its sender uses.
  const dujiao = req.headers.has(DUJIAO_HEADER_API_KEY);
  const apiKey = req.headers.get(dujiao ? DUJIAO_HEADER_API_KEY : HEADER_API_KEY);
  const ts = req.headers.get(dujiao ? DUJIAO_HEADER_TIMESTAMP : HEADER_TIMESTAMP);
  const signature = req.headers.get(dujiao ? DUJIAO_HEADER_SIGNATURE : HEADER_SIGNATURE);
  const window = dujiao ? DUJIAO_TIMESTAMP_WINDOW_SECONDS : TIMESTAMP_WINDOW_SECONDS;
  if (!apiKey || !ts || !signature || !/^[0-9]{1,12}$/.test(ts)) throw unauthorized();
  if (Math.abs(Number(ts) - Date.now() / 1000) > window) throw unauthorized();
  const conn = await loadConnection(req.connectionId).catch(() => null);
  const speaks = dujiao ? conn?.protocol === "dujiao_next" : conn?.protocol === "svc" && conn.profile === "U";
  if (!conn || !speaks || !sameText(apiKey, conn.apiKey)) throw unauthorized();
  const rawBody = await req.readBody();
  const path = dujiao ? DUJIAO_CALLBACK_SIGNED_PATH : req.path;
  if (!verifySignature({ method: req.method, path, timestamp: ts, body: rawBody, secret: conn.apiSecret, signature })) throw unauthorized();

  let body: { event?: unknown; downstream_order_no?: unknown; order_id?: unknown };
  try {
    body = JSON.parse(rawBody.toString("utf8")) as typeof body; // every field is checked where read
  } catch {
    throw appError("bad_request", "callback body must be JSON");
  }
  if (dujiao && !DujiaoCallbackSchema.safeParse(body).success) throw appError("bad_request", "callback body is not Dujiao-Next's");
  if (body?.event === "catalog.updated" && !dujiao) return { ok: true, stock_updated: await applyUpstreamCatalogEvent(conn.id, body) };
  if (typeof body?.downstream_order_no !== "string") throw appError("bad_request", "downstream_order_no is required");
  const purchase = await db().upstreamPurchase.findFirst({
    where: { connectionId: conn.id, downstreamOrderNo: body.downstream_order_no },
    select: { id: true, orderId: true, status: true, upstreamOrderId: true },
  });
  if (!purchase || (purchase.upstreamOrderId !== null && body.order_id !== undefined && body.order_id !== purchase.upstreamOrderId)) {
    throw appError("order_not_found", "no such order of this connection");
  }
  const open = purchase.status === "pending" || purchase.status === "placed";
  if (open) await db().$transaction((tx) => enqueuePurchaseRun(tx, purchase.id));
  // Issue 26.3: a delivered order changed upstream (a replacement, a refund): our claims there are read now,
  // by lib/after-sales, which subscribes to this job (issue 34.1: after-sales imports upstream, so not called from here).
  else if (purchase.orderId !== null) {
    const orderId = purchase.orderId;
    await db().$transaction((tx) => enqueueJob(tx, "after-sales:order-changed", { orderId }));
  }
  log.info({ component: "upstream", connectionId: conn.id, purchaseId: purchase.id, polled: open }, "upstream callback accepted");
  return { ok: true, polled: open };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
