import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSign } from "../../testing/fake-gateways/common";
import { startFakeEpusdt, type FakeEpusdt } from "../../testing/fake-gateways/epusdt";
import { startNotifyReceiver, type NotifyReceiver } from "../../testing/fake-gateways/notify-receiver";
import { GatewayError, type GatewayChannel, type GatewayPayment } from "./driver";
import { epusdtDriver } from "./epusdt";

let fake: FakeEpusdt;
let receiver: NotifyReceiver;
let channel: GatewayChannel;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeEpusdt();
  channel = {
    id: 3,
    driver: "epusdt",
    gatewayUrl: `${fake.url}/`,
    merchantId: null,
    key: fake.token,
    webhookSecret: null,
    apiBase: null,
    currency: "CNY",
  };
  receiver = await startNotifyReceiver(epusdtDriver, () => channel);
});
afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});

function payment(amountCents = 1000n): GatewayPayment {
  const paymentNo = `P${Date.now()}${++seq}`;
  return {
    paymentNo,
    amountCents,
    subject: "Top-up",
    notifyUrl: receiver.url,
    returnUrl: `http://127.0.0.1:9/portal/top-ups/${paymentNo}`,
    expiresAt: new Date(Date.now() + 15 * 60_000),
    providerRef: null,
  };
}

async function verdictOf(paymentNo: string, overrides?: Parameters<FakeEpusdt["notify"]>[1]) {
  const before = receiver.verdicts.length;
  await fake.notify(paymentNo, overrides);
  expect(receiver.verdicts).toHaveLength(before + 1);
  return receiver.verdicts[before];
}

describe("epusdt driver against the fake", () => {
  it("has no query (epusdt has no query API)", () => {
    expect(Object.hasOwn(epusdtDriver, "query")).toBe(false);
    expect("query" in epusdtDriver).toBe(false);
  });

  it("create posts a signed order and answers payment_url and trade_id", async () => {
    const p = payment(1050n);
    const c = await epusdtDriver.create(channel, p);
    expect(fake.creates.at(-1)).toMatchObject({ order_id: p.paymentNo, amount: 10.5, notify_url: receiver.url, redirect_url: p.returnUrl });
    expect(c).toEqual({ payUrl: `${fake.url}/pay/${p.paymentNo}`, providerRef: fake.payments.get(p.paymentNo)?.tradeId });
  });

  it("create fails with a GatewayError when epusdt refuses the signature", async () => {
    await expect(epusdtDriver.create({ ...channel, key: "wrong-token" }, payment())).rejects.toBeInstanceOf(GatewayError);
  });

  it("verify reads a paid notify (status 2), signed over every field", async () => {
    const p = payment();
    const c = await epusdtDriver.create(channel, p);
    fake.markPaid(p.paymentNo);
    expect((await verdictOf(p.paymentNo)).report).toEqual({
      paymentNo: p.paymentNo,
      providerRef: c.providerRef,
      paid: true,
      amount: "10",
      currency: "CNY",
    });
    expect(fake.notified.at(-1)).toMatchObject({ status: 200, body: "ok" });
  });

  it("paid=false for status 1 and 3; the amount is passed through as text", async () => {
    const p = payment();
    await epusdtDriver.create(channel, p);
    expect((await verdictOf(p.paymentNo)).report?.paid).toBe(false);
    expect((await verdictOf(p.paymentNo, { set: { status: 3 } })).report?.paid).toBe(false);
    expect((await verdictOf(p.paymentNo, { set: { status: 2, amount: "10.0" } })).report).toMatchObject({ paid: true, amount: "10.0" });
    const sig = fakeSign({ trade_id: "t", order_id: "o", amount: "10.00", status: "2" }, fake.token, []);
    const raw = Buffer.from(`{"trade_id":"t","order_id":"o","amount":10.00,"status":2,"signature":"${sig}"}`);
    expect(
      epusdtDriver.verify(channel, { method: "POST", query: new URLSearchParams(), headers: new Headers(), rawBody: raw }),
    ).toMatchObject({
      amount: "10.00",
      paid: true,
    });
  });

  it("refuses a bad, missing or upper-cased signature and another token", async () => {
    const p = payment();
    await epusdtDriver.create(channel, p);
    fake.markPaid(p.paymentNo);
    for (const bend of [
      { signature: "0".repeat(32) },
      { drop: ["signature"] },
      { signature: (s: string) => s.toUpperCase() },
      { key: "another-merchant-token" },
      { set: { signature: null }, drop: ["signature"] },
    ]) {
      const v = await verdictOf(p.paymentNo, bend);
      expect(v.refused, JSON.stringify(bend)).toEqual(expect.any(String));
      expect(v.refused).not.toMatch(/NOT A REFUSAL/);
    }
  });

  it("the pay page's button marks it paid, notifies, and sends the browser back", async () => {
    const p = payment();
    const c = await epusdtDriver.create(channel, p);
    const before = receiver.verdicts.length;
    const res = await fetch(c.payUrl, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(p.returnUrl);
    expect(receiver.verdicts[before]?.report).toMatchObject({ paymentNo: p.paymentNo, paid: true });
  });
});
