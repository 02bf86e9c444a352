import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNotifyReceiver, type NotifyReceiver } from "../../testing/fake-gateways/notify-receiver";
import { startFakeStripe, type FakeStripe } from "../../testing/fake-gateways/stripe";
import { GatewayError, NotifyRefusedError, type GatewayChannel, type GatewayPayment } from "./driver";
import { stripeDriver } from "./stripe";

let fake: FakeStripe;
let receiver: NotifyReceiver;
let channel: GatewayChannel;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeStripe();
  channel = {
    id: 4,
    driver: "stripe",
    gatewayUrl: null,
    merchantId: null,
    key: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    apiBase: fake.url,
    currency: "CNY",
  };
  receiver = await startNotifyReceiver(stripeDriver, () => channel);
  fake.webhookUrl = receiver.url;
});
afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});

function payment(amountCents = 1000n, expiresInMs = 15 * 60_000): GatewayPayment {
  const paymentNo = `P${Date.now()}${++seq}`;
  return {
    paymentNo,
    amountCents,
    subject: "Top-up",
    notifyUrl: receiver.url,
    returnUrl: `http://127.0.0.1:9/portal/top-ups/${paymentNo}`,
    expiresAt: new Date(Date.now() + expiresInMs),
    providerRef: null,
  };
}

async function created(amountCents = 1000n) {
  const p = payment(amountCents);
  const c = await stripeDriver.create(channel, p);
  return { p: { ...p, providerRef: c.providerRef ?? null }, c };
}

async function verdictOf(paymentNo: string, overrides?: Parameters<FakeStripe["notify"]>[1]) {
  const before = receiver.verdicts.length;
  await fake.notify(paymentNo, overrides);
  expect(receiver.verdicts).toHaveLength(before + 1);
  return receiver.verdicts[before];
}

const signedRequest = (payload: string, secret = fake.webhookSecret) => ({
  method: "POST",
  query: new URLSearchParams(),
  headers: new Headers({ "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }) }),
  rawBody: Buffer.from(payload),
});

describe("Stripe driver against the fake", () => {
  it("create opens a Checkout Session: url and id; the amount in minor units, currency lower-cased, expiry clamped to 30 min", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { p, c } = await created(1050n);
    expect(c.providerRef).toMatch(/^cs_test_/);
    expect(c.payUrl).toBe(`${fake.url}/pay/${p.paymentNo}`);
    const sent = fake.creates.at(-1);
    expect(sent?.idempotencyKey).toBe(`payment-${p.paymentNo}`);
    expect(sent?.form).toMatchObject({
      mode: "payment",
      client_reference_id: p.paymentNo,
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "cny",
      "line_items[0][price_data][unit_amount]": "1050",
      "line_items[0][price_data][product_data][name]": "Top-up",
      success_url: p.returnUrl,
      cancel_url: p.returnUrl,
      "metadata[payment_no]": p.paymentNo,
    });
    expect(Number(sent?.form.expires_at)).toBeGreaterThanOrEqual(now + 1800);
  });

  it("create is idempotent per payment: the same session comes back", async () => {
    const p = payment();
    const a = await stripeDriver.create(channel, p);
    const b = await stripeDriver.create(channel, p);
    expect(b).toEqual(a);
  });

  it("a wrong secret key is a GatewayError that does not quote the key", async () => {
    const err: unknown = await stripeDriver.create({ ...channel, key: "sk_test_wrong_key_123" }, payment()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(String(err)).not.toContain("sk_test_wrong_key_123");
  });

  it("verify reads a signed checkout.session.completed event", async () => {
    const { p } = await created();
    fake.markPaid(p.paymentNo);
    expect((await verdictOf(p.paymentNo)).report).toEqual({
      paymentNo: p.paymentNo,
      providerRef: p.providerRef,
      paid: true,
      amount: "10.00",
      currency: "cny",
    });
    expect(fake.notified.at(-1)).toMatchObject({ status: 200, body: "ok" });
    expect((await verdictOf(p.paymentNo, { type: "checkout.session.async_payment_succeeded" })).report?.paid).toBe(true);
  });

  it("paid=false while the session's payment_status is not paid", async () => {
    const { p } = await created();
    expect((await verdictOf(p.paymentNo)).report).toMatchObject({ paid: false, paymentNo: p.paymentNo });
  });

  it("refuses another secret, no header, a forged header, a stale timestamp, and other event types", async () => {
    const { p } = await created();
    fake.markPaid(p.paymentNo);
    const bends: Parameters<FakeStripe["notify"]>[1][] = [
      { secret: "whsec_another" },
      { signatureHeader: null },
      { signatureHeader: `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
      { timestamp: Math.floor(Date.now() / 1000) - 3600 },
      { type: "payment_intent.succeeded" },
      { set: { client_reference_id: null } },
      { set: { amount_total: 10.5 } },
    ];
    for (const bend of bends) {
      const v = await verdictOf(p.paymentNo, bend);
      expect(v.refused, JSON.stringify(bend)).toEqual(expect.any(String));
      expect(v.refused).not.toMatch(/NOT A REFUSAL/);
    }
    expect(receiver.verdicts.at(-3)?.refused).toMatch(/ignored event type/);
  });

  it("a signed body that is not an event is refused, never a TypeError", () => {
    for (const payload of [
      "not json",
      "[]",
      "null",
      '{"type":"checkout.session.completed"}',
      '{"type":"checkout.session.completed","data":null}',
    ]) {
      expect(() => stripeDriver.verify(channel, signedRequest(payload)), payload).toThrow(NotifyRefusedError);
    }
    expect(() => stripeDriver.verify({ ...channel, webhookSecret: null }, signedRequest("{}"))).toThrow(NotifyRefusedError);
  });

  it("query retrieves the session: the same report; null without a ref or for an unknown session", async () => {
    const { p } = await created();
    expect(await stripeDriver.query!(channel, p)).toEqual({
      paymentNo: p.paymentNo,
      providerRef: p.providerRef,
      paid: false,
      amount: "10.00",
      currency: "cny",
    });
    fake.markPaid(p.paymentNo);
    expect(await stripeDriver.query!(channel, p)).toMatchObject({ paid: true });
    expect(await stripeDriver.query!(channel, { ...p, providerRef: null })).toBeNull();
    expect(await stripeDriver.query!(channel, { ...p, providerRef: "cs_test_unknown" })).toBeNull();
  });

  it("the hosted page's button marks it paid, sends the webhook, and sends the browser back", async () => {
    const { p, c } = await created();
    const before = receiver.verdicts.length;
    const res = await fetch(c.payUrl, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(p.returnUrl);
    expect(receiver.verdicts[before]?.report).toMatchObject({ paymentNo: p.paymentNo, paid: true });
  });
});
