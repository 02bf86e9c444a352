import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/client";
import { reconcilePoints } from "@/lib/points/reconcile-points";
import { updateSettings } from "@/lib/settings/update-settings";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { startFakeEpusdt, type FakeEpusdt } from "@/lib/testing/fake-gateways/epusdt";
import { startFakeStripe, type FakeStripe } from "@/lib/testing/fake-gateways/stripe";
import { startFakeTokenpay, type FakeTokenpay } from "@/lib/testing/fake-gateways/tokenpay";
import type { NotifyOverrides } from "@/lib/testing/fake-gateways/common";
import { signedInBuyer, startPayment } from "@/lib/testing/portal-buyer";
import { useTestDatabase } from "@/lib/testing/test-database";
import { addChannel } from "./add-channel";
import { ChannelInputSchema } from "./channel-input";
import { confirmPayment } from "./confirm-payment";
import { notifyUrl } from "./payment-view";
import { queryPayment } from "./query-payment";

// Issue 36 (decision 0089): TokenPay, epusdt and Stripe Checkout end to end,
// each against its fake gateway on 127.0.0.1, through the real app server:
// the portal starts the payment, the fake's signed notify (or Stripe's
// signed webhook event) credits it once, the active query finds a lost one.

const SLOW = 300_000;
let app: AppServer;
let tokenpay: FakeTokenpay;
let epusdt: FakeEpusdt;
let stripe: FakeStripe;
const channels = { tokenpay: 0, epusdt: 0, stripe: 0 };

beforeAll(async () => {
  const url = await useTestDatabase();
  [app, tokenpay, epusdt, stripe] = await Promise.all([startAppServer(url), startFakeTokenpay(), startFakeEpusdt(), startFakeStripe()]);
  await updateSettings({ public_base_url: app.baseUrl }, { actor: SYSTEM_ACTOR });
  const add = async (input: object) => (await addChannel({ input: ChannelInputSchema.parse(input), actor: CLI_ACTOR })).id;
  channels.tokenpay = await add({
    driver: "tokenpay",
    name: "usdt",
    gatewayUrl: tokenpay.url,
    key: tokenpay.token,
    currency: "USDT_TRC20",
  });
  channels.epusdt = await add({ driver: "epusdt", name: "epusdt", gatewayUrl: epusdt.url, key: epusdt.token });
  channels.stripe = await add({
    driver: "stripe",
    name: "card",
    key: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    apiBase: stripe.url,
    currency: "cny",
  });
  stripe.webhookUrl = notifyUrl(app.baseUrl, channels.stripe);
}, SLOW);
afterAll(async () => {
  await Promise.all([app?.stop(), tokenpay?.close(), epusdt?.close(), stripe?.close()]);
});

const balance = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId } })).balanceCents;
const credits = (paymentNo: string) => db().pointsLedger.count({ where: { payment: { paymentNo } } });
const stateOf = async (paymentNo: string) => (await db().payment.findUniqueOrThrow({ where: { paymentNo } })).state;

describe("issue 36: TokenPay, epusdt and Stripe against their fakes", { timeout: SLOW }, () => {
  it("TokenPay: paid notify credits once (10 in parallel, each answered ok); another currency, another amount and a bad signature are refused; a lost notify is found by the active query", async () => {
    const b = await signedInBuyer(app);
    const created = await startPayment(app, b.cookie, { channel_id: channels.tokenpay, amount: "25.00" });
    expect(created).toMatchObject({ status: 200, json: { state: "pending" } });
    const no = created.json.payment_no;
    expect(tokenpay.payments.get(no)).toBeDefined();
    tokenpay.markPaid(no);
    for (const bent of [
      { set: { Currency: "USDT_ERC20" } },
      { set: { ActualAmount: "24.99" } },
      { signature: (s: string) => s.toUpperCase() },
    ] as NotifyOverrides[]) {
      expect((await tokenpay.notify(no, bent)).status, JSON.stringify(bent.set ?? "signature")).toBe(400);
    }
    expect(await credits(no)).toBe(0);
    const answers = await Promise.all(Array.from({ length: 10 }, () => tokenpay.notify(no)));
    expect(answers.map((a) => `${a.status} ${a.body}`)).toEqual(Array(10).fill("200 ok"));
    expect([await credits(no), await balance(b.user.id)]).toEqual([1, 2500n]);

    const lost = (await startPayment(app, b.cookie, { channel_id: channels.tokenpay, amount: "5.00" })).json.payment_no;
    tokenpay.markPaid(lost);
    expect(await queryPayment(lost)).toMatchObject({ supported: true, outcome: "credited" });
    expect((await tokenpay.notify(lost)).body).toBe("ok");
    expect([await credits(lost), await balance(b.user.id)]).toEqual([1, 3000n]);
  });

  it("epusdt: status 2 credits once; no query API, so a lost notify is confirmed by hand, once", async () => {
    const b = await signedInBuyer(app);
    const no = (await startPayment(app, b.cookie, { channel_id: channels.epusdt, amount: "9.50" })).json.payment_no;
    expect(await epusdt.notify(no)).toMatchObject({ status: 400 }); // status 1: not paid yet
    epusdt.markPaid(no);
    expect(await epusdt.notify(no)).toMatchObject({ status: 200, body: "ok" });
    expect(await epusdt.notify(no)).toMatchObject({ status: 200, body: "ok" });
    expect(await credits(no)).toBe(1);

    const lost = (await startPayment(app, b.cookie, { channel_id: channels.epusdt, amount: "1.50" })).json.payment_no;
    expect(await queryPayment(lost)).toMatchObject({ supported: false, outcome: null });
    expect(await stateOf(lost)).toBe("pending");
    await confirmPayment({ input: { paymentNo: lost, reference: "trade-checked-by-hand" }, actor: CLI_ACTOR });
    expect([await credits(lost), await balance(b.user.id)]).toEqual([1, 1100n]);
  });

  it("Stripe: a Checkout Session per payment (client_reference_id, idempotency key); the signed webhook event credits once; a bad or missing signature is refused; the session is retrieved by the active query", async () => {
    const b = await signedInBuyer(app);
    const created = await startPayment(app, b.cookie, { channel_id: channels.stripe, amount: "42.00" });
    expect(created.status).toBe(200);
    const no = created.json.payment_no;
    const session = stripe.payments.get(no)!;
    expect(session).toMatchObject({ client_reference_id: no, amount_total: 4200, currency: "cny" });
    expect(created.json.pay_url).toBe(session.url);
    expect(stripe.creates.at(-1)?.idempotencyKey).toBe(`payment-${no}`);
    stripe.markPaid(no);
    expect((await stripe.notify(no, { secret: "whsec_not_ours" })).status).toBe(400);
    expect((await stripe.notify(no, { signatureHeader: null })).status).toBe(400);
    expect((await stripe.notify(no, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(400); // outside 300 s
    expect(await credits(no)).toBe(0);
    const answers = await Promise.all(Array.from({ length: 5 }, () => stripe.notify(no)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect([await credits(no), await balance(b.user.id)]).toEqual([1, 4200n]);

    const lost = (await startPayment(app, b.cookie, { channel_id: channels.stripe, amount: "1.00" })).json.payment_no;
    stripe.markPaid(lost);
    expect(await queryPayment(lost)).toMatchObject({ supported: true, outcome: "credited" });
    expect(await credits(lost)).toBe(1);
    expect(await reconcilePoints()).toMatchObject({ ok: true, paymentMismatches: [] });
  });
});
