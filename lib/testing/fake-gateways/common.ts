import { createHash } from "node:crypto";
import type http from "node:http";

// What the four fake gateways share: their own copy of the MD5 sign rule
// (written apart from the drivers' on purpose, so a mistake in one is caught
// by the other), the pay page a browser test clicks, and sending a notify.

/** How a test bends a notify: fields changed before signing, another key, a given signature, fields dropped after. */
export interface NotifyOverrides {
  /** Fields set (or, with null, removed) before signing: another pid, amount, status… */
  set?: Record<string, string | number | null>;
  /** Sign with this key instead of the merchant's. */
  key?: string;
  /** Send this signature instead of the computed one, or one made from it (e.g. upper-cased). */
  signature?: string | ((computed: string) => string);
  /** Fields removed after signing (e.g. the signature itself). */
  drop?: string[];
}

/** What the notified server answered. */
export interface NotifyOutcome {
  paymentNo: string;
  status: number;
  body: string;
}

/** The fields every fake keeps about one payment, for its pay page. */
export interface PayablePayment {
  paymentNo: string;
  amount: string | number;
  subject: string;
  returnUrl: string;
  paid: boolean;
}

/** The MD5 v1 rule as the gateways' PHP/Go code writes it: ksort, skip empty and the signature fields, k=v&…, key appended. */
export function fakeSign(fields: Record<string, string | number>, key: string, skip: string[]): string {
  const keys = Object.keys(fields).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  let text = "";
  for (const k of keys) {
    const v = String(fields[k]);
    if (skip.includes(k) || v === "") continue;
    text += (text ? "&" : "") + k + "=" + v;
  }
  return createHash("md5")
    .update(text + key)
    .digest("hex");
}

/** The fields after `set`: null removes one. */
export function withSet<T extends Record<string, string | number>>(
  fields: T,
  overrides?: NotifyOverrides,
): Record<string, string | number> {
  const out: Record<string, string | number> = { ...fields };
  for (const [k, v] of Object.entries(overrides?.set ?? {})) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Sets the signature field (computed, or the override) and drops what the overrides drop. */
export function signedNotify(
  fields: Record<string, string | number>,
  key: string,
  signField: string,
  skip: string[],
  overrides?: NotifyOverrides,
): Record<string, string | number> {
  const computed = fakeSign(fields, overrides?.key ?? key, skip);
  const given = overrides?.signature;
  const out = { ...fields, [signField]: typeof given === "function" ? given(computed) : (given ?? computed) };
  for (const k of overrides?.drop ?? []) delete out[k];
  return out;
}

/** What every fake offers a test. */
export interface FakeGateway<P, O> {
  /** The gateway's base URL (a channel's gatewayUrl or apiBase). */
  url: string;
  /** What the fake knows, by our payment number. */
  payments: Map<string, P>;
  /** What each notify got back, in order. */
  notified: NotifyOutcome[];
  markPaid(paymentNo: string): void;
  /** Sends the notify for a recorded payment; `overrides` bend it for tests. */
  notify(paymentNo: string, overrides?: O): Promise<NotifyOutcome>;
  close(): Promise<void>;
}

/** The recorded payment, or an error naming the fake (a test asked about one it never created). */
export function recorded<P>(payments: Map<string, P>, paymentNo: string, gateway: string): P {
  const p = payments.get(paymentNo);
  if (!p) throw new Error(`fake ${gateway}: no payment ${paymentNo}`);
  return p;
}

/** Sends a notify as the gateway would, keeps what it got back on the fake (loopback only, redirects not followed). */
export async function sendNotify(
  fake: { notified: NotifyOutcome[] },
  url: string,
  paymentNo: string,
  init: { method: "GET" | "POST"; body?: string; headers?: Record<string, string> },
): Promise<NotifyOutcome> {
  const res = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  const outcome = { paymentNo, status: res.status, body: await res.text() };
  fake.notified.push(outcome);
  return outcome;
}

/** A JSON notify (TokenPay, epusdt). */
export function postJsonNotify(
  fake: { notified: NotifyOutcome[] },
  url: string,
  paymentNo: string,
  fields: object,
): Promise<NotifyOutcome> {
  return sendNotify(fake, url, paymentNo, {
    method: "POST",
    body: JSON.stringify(fields),
    headers: { "content-type": "application/json" },
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The gateway's page: the amount, and a "Pay" button whose POST goes to /pay/<payment number>. */
export function sendPayPage(res: http.ServerResponse, gateway: string, payment: PayablePayment): void {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(gateway)} (fake)</title></head><body>
<h1>${escapeHtml(gateway)} (fake)</h1>
<p>${escapeHtml(payment.subject)}: <span id="amount">${escapeHtml(String(payment.amount))}</span></p>
<p id="state">${payment.paid ? "paid" : "unpaid"}</p>
<form method="post" action="/pay/${encodeURIComponent(payment.paymentNo)}"><button type="submit">Pay</button></form>
</body></html>`);
}

/**
 * GET /pay/<no> shows the page; POST /pay/<no> marks the payment paid, sends
 * the notify (its answer is kept by the fake) and sends the browser back to
 * the return URL. Answers false when the request is not for a pay page.
 */
export function handlePayPage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  gateway: string,
  fake: { payments: Map<string, PayablePayment>; markPaid(paymentNo: string): void; notify(paymentNo: string): Promise<NotifyOutcome> },
): boolean {
  const m = /^\/pay\/([^/?]+)$/.exec(req.url ?? "");
  if (!m) return false;
  const payment = fake.payments.get(decodeURIComponent(m[1]));
  if (!payment) {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("no such payment");
    return true;
  }
  if (req.method !== "POST") {
    sendPayPage(res, gateway, payment);
    return true;
  }
  fake.markPaid(payment.paymentNo);
  // The browser is sent back whatever the notify's fate: the app's page must cope with a notify that comes late.
  void fake
    .notify(payment.paymentNo)
    .catch(() => undefined)
    .finally(() => res.writeHead(303, { Location: payment.returnUrl }).end());
  return true;
}

/** Answers JSON. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

/** A JSON request body as an object, or null. */
export function parseJsonObject(body: Buffer): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(body.toString("utf8"));
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The scalar fields of a JSON object, as signed (numbers and strings). */
export function scalarFields(obj: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(obj)) if (typeof v === "string" || typeof v === "number") out[k] = v;
  return out;
}
