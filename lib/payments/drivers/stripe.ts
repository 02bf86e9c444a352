import Stripe from "stripe";
import { z } from "zod";
import { formatAmount } from "../../protocol/amount";
import { GatewayError, NotifyRefusedError, type GatewayChannel, type GatewayReport, type PaymentDriver } from "./driver";
import { GATEWAY_TIMEOUT_MS } from "./http";

// Stripe Checkout through the stripe package. Create opens a Checkout
// Session (idempotent per payment); the notify is a webhook event signed with
// the endpoint's secret over the raw body; the active query retrieves the
// session. A channel's apiBase points the client elsewhere (tests: a fake).

/** Stripe's own tolerance for a webhook's timestamp, in seconds. */
const WEBHOOK_TOLERANCE_S = 300;
/** Stripe refuses expires_at under 30 minutes or over 24 hours from now; a minute of margin either side for the trip. */
const MIN_EXPIRY_MS = 31 * 60_000;
const MAX_EXPIRY_MS = 24 * 3600_000 - 60_000;
const SESSION_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

function client(channel: GatewayChannel): Stripe {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 0, timeout: GATEWAY_TIMEOUT_MS, telemetry: false };
  if (channel.apiBase) {
    let base: URL;
    try {
      base = new URL(channel.apiBase);
    } catch {
      throw new GatewayError("Stripe: the channel's API base is not a URL");
    }
    const http = base.protocol === "http:";
    config.host = base.hostname;
    config.protocol = http ? "http" : "https";
    config.port = base.port || (http ? 80 : 443);
  }
  return new Stripe(channel.key, config);
}

/** What Stripe said went wrong: its error type, status and code, never its message (it may quote the request). */
function stripeFailure(what: string, err: unknown): GatewayError {
  if (err instanceof Stripe.errors.StripeError) {
    return new GatewayError(`${what}: ${err.type}${err.statusCode ? ` (HTTP ${err.statusCode})` : ""}${err.code ? ` ${err.code}` : ""}`);
  }
  return new GatewayError(`${what}: the request failed`);
}

const Session = z.looseObject({
  object: z.literal("checkout.session"),
  id: z.string().min(1),
  client_reference_id: z.string().min(1),
  amount_total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  currency: z.string().min(1),
  payment_status: z.string(),
});

const StripeEvent = z.looseObject({ type: z.string(), data: z.looseObject({ object: z.unknown() }) });

/** A session read as a report, or the name of the first field that is wrong. */
function sessionReport(session: unknown): GatewayReport | string {
  const parsed = Session.safeParse(session);
  if (!parsed.success) return `the session's ${parsed.error.issues[0]?.path.join(".") || "body"} is not as expected`;
  const s = parsed.data;
  return {
    paymentNo: s.client_reference_id,
    providerRef: s.id,
    paid: s.payment_status === "paid",
    amount: formatAmount(BigInt(s.amount_total)),
    currency: s.currency,
  };
}

export const stripeDriver: PaymentDriver = {
  name: "stripe",
  successReply: "ok",

  async create(channel, payment) {
    const now = Date.now();
    const expiresMs = Math.min(Math.max(payment.expiresAt.getTime(), now + MIN_EXPIRY_MS), now + MAX_EXPIRY_MS);
    let session: Stripe.Checkout.Session;
    try {
      session = await client(channel).checkout.sessions.create(
        {
          mode: "payment",
          client_reference_id: payment.paymentNo,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: channel.currency.toLowerCase(),
                unit_amount: Number(payment.amountCents),
                product_data: { name: payment.subject },
              },
            },
          ],
          success_url: payment.returnUrl,
          cancel_url: payment.returnUrl,
          expires_at: Math.floor(expiresMs / 1000),
          metadata: { payment_no: payment.paymentNo },
        },
        // A retried create (after a timeout) gets the same session back, not a second one.
        { idempotencyKey: `payment-${payment.paymentNo}` },
      );
    } catch (err) {
      throw stripeFailure("Stripe checkout session create", err);
    }
    if (!session.url || !session.id) throw new GatewayError("Stripe checkout session create: the session has no URL");
    return { payUrl: session.url, providerRef: session.id };
  },

  verify(channel, request) {
    const header = request.headers.get("stripe-signature");
    if (!header) throw new NotifyRefusedError("no Stripe-Signature header");
    if (!channel.webhookSecret) throw new NotifyRefusedError("the channel has no webhook secret");
    let signed: unknown;
    try {
      signed = Stripe.webhooks.constructEvent(request.rawBody, header, channel.webhookSecret, WEBHOOK_TOLERANCE_S);
    } catch {
      // A wrong or stale signature, or a signed body that is not JSON.
      throw new NotifyRefusedError("the Stripe signature does not match");
    }
    // Signed is not well-formed: the body is still read as unknown (null, an array, no data…).
    const event = StripeEvent.safeParse(signed);
    if (!event.success) throw new NotifyRefusedError("the body is not a Stripe event");
    const { type, data } = event.data;
    // Other events are not about a checkout session; refused so the core answers them and nothing changes.
    if (!SESSION_EVENTS.has(type)) throw new NotifyRefusedError(`ignored event type ${JSON.stringify(type.slice(0, 80))}`);
    const report = sessionReport(data.object);
    if (typeof report === "string") throw new NotifyRefusedError(report);
    return report;
  },

  async query(channel, payment) {
    if (!payment.providerRef) return null;
    let session: Stripe.Checkout.Session;
    try {
      session = await client(channel).checkout.sessions.retrieve(payment.providerRef);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.statusCode === 404) return null;
      throw stripeFailure("Stripe checkout session retrieve", err);
    }
    const report = sessionReport(session);
    if (typeof report === "string") throw new GatewayError(`Stripe checkout session retrieve: ${report}`);
    return report;
  },
};
