import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSign } from "../../testing/fake-gateways/common";
import { startNotifyReceiver, type NotifyReceiver } from "../../testing/fake-gateways/notify-receiver";
import { startFakeTokenpay, type FakeTokenpay } from "../../testing/fake-gateways/tokenpay";
import { GatewayError, NotifyRefusedError, type GatewayChannel, type GatewayPayment } from "./driver";
import { tokenpayDriver } from "./tokenpay";

let fake: FakeTokenpay;
let receiver: NotifyReceiver;
let channel: GatewayChannel;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeTokenpay();
  channel = {
    id: 2,
    driver: "tokenpay",
    gatewayUrl: fake.url,
    merchantId: null,
    key: fake.token,
    webhookSecret: null,
    apiBase: null,
    currency: "USDT_TRC20",
  };
  receiver = await startNotifyReceiver(tokenpayDriver, () => channel);
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

async function created(amountCents = 1000n) {
  const p = payment(amountCents);
  const c = await tokenpayDriver.create(channel, p);
  return { p: { ...p, providerRef: c.providerRef ?? null }, c };
}

async function verdictOf(paymentNo: string, overrides?: Parameters<FakeTokenpay["notify"]>[1]) {
  const before = receiver.verdicts.length;
  await fake.notify(paymentNo, overrides);
  expect(receiver.verdicts).toHaveLength(before + 1);
  return receiver.verdicts[before];
}

describe("TokenPay driver against the fake", () => {
  it("create posts a signed CreateOrder and answers the pay URL and TokenPay's Id", async () => {
    const { p, c } = await created(1050n);
    const sent = fake.creates.at(-1);
    expect(sent).toMatchObject({
      OutOrderId: p.paymentNo,
      OrderUserKey: p.paymentNo,
      ActualAmount: 10.5,
      Currency: "USDT_TRC20",
      NotifyUrl: receiver.url,
    });
    expect(sent?.Signature).toMatch(/^[0-9a-f]{32}$/);
    expect(c.payUrl).toBe(`${fake.url}/pay/${p.paymentNo}`);
    expect(c.providerRef).toBe(fake.payments.get(p.paymentNo)?.id);
    expect((await fetch(c.payUrl)).status).toBe(200);
  });

  it("create fails with a GatewayError when TokenPay refuses the signature (another token)", async () => {
    await expect(tokenpayDriver.create({ ...channel, key: "wrong-token" }, payment())).rejects.toBeInstanceOf(GatewayError);
    await expect(tokenpayDriver.create({ ...channel, key: "wrong-token" }, payment())).rejects.not.toThrow(/wrong-token/);
  });

  it("verify reads a notify signed over every field it carries", async () => {
    const { p } = await created();
    fake.markPaid(p.paymentNo);
    const v = await verdictOf(p.paymentNo);
    expect(v.report).toEqual({ paymentNo: p.paymentNo, providerRef: p.providerRef, paid: true, amount: "10", currency: "USDT_TRC20" });
    expect(fake.notified.at(-1)).toMatchObject({ status: 200, body: "ok" });
    // A field TokenPay adds later is signed too: still accepted.
    expect((await verdictOf(p.paymentNo, { set: { NewField: "x" } })).report?.paid).toBe(true);
  });

  it("refuses a bad, missing or upper-cased signature, another token, a field changed after signing", async () => {
    const { p } = await created();
    fake.markPaid(p.paymentNo);
    for (const bend of [
      { signature: "f".repeat(32) },
      { drop: ["Signature"] },
      { signature: (s: string) => s.toUpperCase() },
      { key: "another-merchant-token" },
      { signature: () => fakeSign({ Id: "x" }, fake.token, []) },
    ]) {
      const v = await verdictOf(p.paymentNo, bend);
      expect(v.refused, JSON.stringify(bend)).toEqual(expect.any(String));
      expect(v.refused).not.toMatch(/NOT A REFUSAL/);
    }
  });

  it("paid only for Status 1 (number or text); the amount is passed through as text", async () => {
    const { p } = await created();
    expect((await verdictOf(p.paymentNo)).report?.paid).toBe(false);
    expect((await verdictOf(p.paymentNo, { set: { Status: 2 } })).report?.paid).toBe(false);
    expect((await verdictOf(p.paymentNo, { set: { Status: "1" } })).report?.paid).toBe(true);
    expect((await verdictOf(p.paymentNo, { set: { ActualAmount: "10.00" } })).report?.amount).toBe("10.00");
  });

  it('keeps a JSON number\'s digits as sent: 10.00 signed as 10.00 is read as "10.00"', () => {
    const fields = { Id: "i1", OutOrderId: "P1", ActualAmount: "10.00", Currency: "USDT_TRC20", Status: "1" };
    const sig = fakeSign(fields, fake.token, []);
    const raw = `{"Id":"i1","OutOrderId":"P1","ActualAmount":10.00,"Currency":"USDT_TRC20","Status":1,"Signature":"${sig}"}`;
    const report = tokenpayDriver.verify(channel, {
      method: "POST",
      query: new URLSearchParams(),
      headers: new Headers(),
      rawBody: Buffer.from(raw),
    });
    expect(report).toMatchObject({ amount: "10.00", paid: true, providerRef: "i1" });
  });

  it("query answers the same report by TokenPay's Id; null without an Id or for an unknown one", async () => {
    const { p } = await created();
    expect(await tokenpayDriver.query!(channel, p)).toEqual({
      paymentNo: p.paymentNo,
      providerRef: p.providerRef,
      paid: false,
      amount: "10",
      currency: "USDT_TRC20",
    });
    fake.markPaid(p.paymentNo);
    expect(await tokenpayDriver.query!(channel, p)).toMatchObject({ paid: true });
    expect(await tokenpayDriver.query!(channel, { ...p, providerRef: null })).toBeNull();
    expect(await tokenpayDriver.query!(channel, { ...p, providerRef: "no-such-id" })).toBeNull();
  });

  it("the pay page's button marks it paid, notifies, and sends the browser back", async () => {
    const { p, c } = await created();
    const before = receiver.verdicts.length;
    const res = await fetch(c.payUrl, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(p.returnUrl);
    expect(receiver.verdicts[before]?.report).toMatchObject({ paymentNo: p.paymentNo, paid: true });
  });

  it("a query against a gateway that is down is a GatewayError", async () => {
    const { p } = await created();
    await expect(tokenpayDriver.query!({ ...channel, gatewayUrl: "http://127.0.0.1:9" }, p)).rejects.toBeInstanceOf(GatewayError);
  });

  it("never a TypeError for a hostile body", () => {
    const req = (body: string) => ({ method: "POST", query: new URLSearchParams(), headers: new Headers(), rawBody: Buffer.from(body) });
    expect(() => tokenpayDriver.verify(channel, req('{"Status":1}'))).toThrow(NotifyRefusedError);
  });
});
