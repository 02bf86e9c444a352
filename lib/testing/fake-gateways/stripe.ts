import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { startLoopbackServer } from "../loopback-server";
import { handlePayPage, recorded, sendJson, sendNotify, type FakeGateway } from "./common";

// A fake Stripe API on 127.0.0.1 for Checkout: POST /v1/checkout/sessions
// (form-encoded, as the stripe package sends it; the Idempotency-Key gives
// back the same session), GET /v1/checkout/sessions/:id, the hosted page,
// and webhook events signed with the endpoint secret as Stripe signs them.

export interface FakeStripeSession {
  id: string;
  object: "checkout.session";
  url: string;
  mode: string;
  client_reference_id: string | null;
  amount_total: number;
  currency: string;
  payment_status: "unpaid" | "paid";
  status: "open" | "complete" | "expired";
  metadata: Record<string, string>;
  expires_at: number;
  success_url: string;
  cancel_url: string;
  livemode: false;
}

/** Bends an event: another type, session fields, another secret, a given header (null: none), an old timestamp. */
export interface StripeNotifyOverrides {
  type?: string;
  set?: Record<string, string | number | null>;
  secret?: string;
  signatureHeader?: string | null;
  timestamp?: number;
}

/** A session as the fake keeps it: the API's fields and the pay page's. */
export type FakeStripeEntry = FakeStripeSession & { paymentNo: string; amount: string; subject: string; returnUrl: string; paid: boolean };

/** `payments` holds the sessions by our payment number (client_reference_id). */
export interface FakeStripe extends FakeGateway<FakeStripeEntry, StripeNotifyOverrides> {
  secretKey: string;
  webhookSecret: string;
  /** Where events are posted (Stripe's webhook endpoint setting); set it before paying. */
  webhookUrl: string | null;
  /** The create requests' form fields, as received (with their Idempotency-Key). */
  creates: { idempotencyKey: string | null; form: Record<string, string> }[];
}

const stripeError = (type: string, message: string, code?: string) => ({ error: { type, message, ...(code ? { code } : {}) } });

/** The session as the API shows it (without the fake's own fields). */
function view(e: FakeStripeEntry): FakeStripeSession {
  const { paymentNo: _n, amount: _a, subject: _s, returnUrl: _r, paid: _p, ...session } = e;
  return session;
}

export async function startFakeStripe(opts: { secretKey?: string; webhookSecret?: string } = {}): Promise<FakeStripe> {
  const byId = new Map<string, FakeStripeEntry>();
  const byKey = new Map<string, FakeStripeEntry>();
  const fake: FakeStripe = {
    url: "",
    secretKey: opts.secretKey ?? "sk_test_fake_0123456789abcdefghij",
    webhookSecret: opts.webhookSecret ?? "whsec_fake_0123456789abcdefghij",
    webhookUrl: null,
    payments: new Map(),
    creates: [],
    notified: [],
    markPaid(paymentNo) {
      const e = must(paymentNo);
      e.paid = true;
      e.payment_status = "paid";
      e.status = "complete";
    },
    notify(paymentNo, overrides = {}) {
      const e = must(paymentNo);
      if (!fake.webhookUrl) throw new Error("fake Stripe: no webhookUrl set");
      const session: Record<string, unknown> = { ...view(e) };
      for (const [k, v] of Object.entries(overrides.set ?? {})) session[k] = v;
      const created = Math.floor(Date.now() / 1000);
      const event = {
        id: `evt_${randomBytes(12).toString("hex")}`,
        object: "event",
        api_version: Stripe.API_VERSION,
        created,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: overrides.type ?? "checkout.session.completed",
        data: { object: session },
      };
      const payload = JSON.stringify(event);
      const header =
        overrides.signatureHeader !== undefined
          ? overrides.signatureHeader
          : Stripe.webhooks.generateTestHeaderString({
              payload,
              secret: overrides.secret ?? fake.webhookSecret,
              timestamp: overrides.timestamp,
            });
      const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
      if (header !== null) headers["stripe-signature"] = header;
      return sendNotify(fake, fake.webhookUrl, paymentNo, { method: "POST", body: payload, headers });
    },
    close: () => Promise.resolve(),
  };
  const must = (paymentNo: string) => recorded(fake.payments, paymentNo, "Stripe");
  const server = await startLoopbackServer((req, body, res) => {
    if (handlePayPage(req, res, "Stripe Checkout", fake)) return;
    if (!req.url?.startsWith("/v1/")) return void res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${fake.secretKey}`) {
      return sendJson(res, 401, stripeError("invalid_request_error", "Invalid API Key provided"));
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/?]+)$/.exec(req.url);
    if (req.method === "GET" && retrieve) {
      const e = byId.get(decodeURIComponent(retrieve[1]));
      if (!e) return sendJson(res, 404, stripeError("invalid_request_error", "No such checkout.session", "resource_missing"));
      return sendJson(res, 200, view(e));
    }
    if (req.method !== "POST" || req.url !== "/v1/checkout/sessions") {
      return sendJson(res, 404, stripeError("invalid_request_error", "Unrecognized request URL"));
    }
    const form = Object.fromEntries(new URLSearchParams(body.toString("utf8")));
    const idempotencyKey = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
    fake.creates.push({ idempotencyKey, form });
    const again = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
    if (again) return sendJson(res, 200, view(again));
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = Number(form.expires_at ?? now + 86400);
    // Stripe's own rule: a session expires 30 minutes to 24 hours after it is created.
    if (!(expiresAt >= now + 1800 && expiresAt <= now + 86400)) {
      return sendJson(
        res,
        400,
        stripeError("invalid_request_error", "expires_at must be 30 minutes to 24 hours from now", "parameter_invalid_integer"),
      );
    }
    const unit = Number(form["line_items[0][price_data][unit_amount]"]);
    const quantity = Number(form["line_items[0][quantity]"] ?? 1);
    const currency = form["line_items[0][price_data][currency]"];
    if (form.mode !== "payment" || !Number.isInteger(unit) || unit < 0 || !currency || !form.success_url) {
      return sendJson(res, 400, stripeError("invalid_request_error", "Missing required param", "parameter_missing"));
    }
    const id = `cs_test_${randomBytes(16).toString("hex")}`;
    const paymentNo = form.client_reference_id ?? id;
    const metadata = Object.fromEntries(
      Object.entries(form)
        .filter(([k]) => /^metadata\[[^\]]+\]$/.test(k))
        .map(([k, v]) => [k.slice(9, -1), v]),
    );
    const entry: FakeStripeEntry = {
      id,
      object: "checkout.session",
      url: `${fake.url}/pay/${encodeURIComponent(paymentNo)}`,
      mode: "payment",
      client_reference_id: form.client_reference_id ?? null,
      amount_total: unit * quantity,
      currency,
      payment_status: "unpaid",
      status: "open",
      metadata,
      expires_at: expiresAt,
      success_url: form.success_url,
      cancel_url: form.cancel_url ?? form.success_url,
      livemode: false,
      paymentNo,
      amount: `${(unit * quantity) / 100} ${currency.toUpperCase()}`,
      subject: form["line_items[0][price_data][product_data][name]"] ?? "",
      returnUrl: form.success_url,
      paid: false,
    };
    byId.set(id, entry);
    if (idempotencyKey) byKey.set(idempotencyKey, entry);
    fake.payments.set(paymentNo, entry);
    return sendJson(res, 200, view(entry));
  });
  fake.url = server.origin;
  fake.close = server.close;
  return fake;
}
