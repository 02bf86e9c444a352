import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeEpay, type FakeEpay } from "../../testing/fake-gateways/epay";
import { startNotifyReceiver, type NotifyReceiver } from "../../testing/fake-gateways/notify-receiver";
import { NotifyRefusedError, type GatewayChannel, type GatewayPayment } from "./driver";
import { epayDriver } from "./epay";
import { md5Sign } from "./signing";

let fake: FakeEpay;
let receiver: NotifyReceiver;
let channel: GatewayChannel;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeEpay();
  channel = {
    id: 1,
    driver: "epay",
    gatewayUrl: fake.url,
    merchantId: fake.pid,
    key: fake.key,
    webhookSecret: null,
    apiBase: null,
    currency: "CNY",
  };
  receiver = await startNotifyReceiver(epayDriver, () => channel);
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
    subject: "Top-up 10.00",
    notifyUrl: receiver.url,
    returnUrl: `http://127.0.0.1:9/portal/top-ups/${paymentNo}`,
    expiresAt: new Date(Date.now() + 15 * 60_000),
    providerRef: null,
  };
}

/** Creates at the driver and opens the pay page, as the buyer's browser does (that is when epay records the order). */
async function opened(p = payment()) {
  const created = await epayDriver.create(channel, p);
  const page = await fetch(created.payUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(">Pay</button>");
  return { p, created };
}

/** The verdict of the last notify the fake sent. */
async function verdictOf(paymentNo: string, overrides?: Parameters<FakeEpay["notify"]>[1]) {
  const before = receiver.verdicts.length;
  await fake.notify(paymentNo, overrides);
  expect(receiver.verdicts).toHaveLength(before + 1);
  return receiver.verdicts[before];
}

describe("epay signing", () => {
  it("matches a known MD5 v1 signature (sorted, raw values, empties and sign fields dropped, key appended)", () => {
    const form = {
      pid: "1001",
      type: "alipay",
      out_trade_no: "P1",
      notify_url: "http://a/n",
      return_url: "http://a/r",
      name: "Top-up",
      money: "10.00",
      sign: "x",
      sign_type: "MD5",
      empty: "",
    };
    // echo -n "money=10.00&name=Top-up&notify_url=http://a/n&out_trade_no=P1&pid=1001&return_url=http://a/r&type=alipaykey123" | md5sum
    expect(md5Sign(form, "key123", ["sign", "sign_type"])).toBe("4873866cc9622e688b96c9c0e5a4a756");
  });
});

describe("epay driver against the fake", () => {
  it("create answers the signed submit.php URL, no provider ref; the fake accepts it", async () => {
    const { p, created } = await opened();
    expect(created.payUrl.startsWith(`${fake.url}/submit.php?`)).toBe(true);
    expect(created.providerRef).toBeUndefined();
    const q = new URL(created.payUrl).searchParams;
    expect(q.get("money")).toBe("10.00");
    expect(q.get("sign_type")).toBe("MD5");
    expect(q.has("type")).toBe(false);
    expect(fake.payments.get(p.paymentNo)?.amount).toBe("10.00");
  });

  it("verify reads a correctly signed GET notify, and one sent as a POST form", async () => {
    const { p } = await opened(payment(1050n));
    fake.markPaid(p.paymentNo);
    const expected = {
      paymentNo: p.paymentNo,
      providerRef: fake.payments.get(p.paymentNo)?.tradeNo,
      paid: true,
      amount: "10.50",
      currency: "CNY",
    };
    expect((await verdictOf(p.paymentNo)).report).toEqual(expected);
    expect(fake.notified.at(-1)).toMatchObject({ status: 200, body: "success" });
    expect((await verdictOf(p.paymentNo, { method: "POST" })).report).toEqual(expected);
    expect(receiver.requests.at(-1)?.method).toBe("POST");
  });

  it("refuses a bad, missing or upper-cased signature, another key, another merchant id", async () => {
    const { p } = await opened();
    const bends = [
      { signature: "0".repeat(32) },
      { drop: ["sign"] },
      { signature: (s: string) => s.toUpperCase() },
      { key: "another-merchant-key" },
      { set: { pid: "1002" } },
      { set: { pid: null } },
    ];
    for (const bend of bends) {
      const v = await verdictOf(p.paymentNo, bend);
      expect(v.refused, JSON.stringify(bend)).toEqual(expect.any(String));
      expect(v.refused).not.toMatch(/NOT A REFUSAL/);
    }
    expect(fake.notified.at(-1)?.status).toBe(400);
  });

  it("reports paid=false for any other trade_status, and passes the amount through as text", async () => {
    const { p } = await opened();
    expect((await verdictOf(p.paymentNo, { set: { trade_status: "WAIT_BUYER_PAY" } })).report?.paid).toBe(false);
    expect((await verdictOf(p.paymentNo, { set: { trade_status: "trade_success" } })).report?.paid).toBe(false);
    expect((await verdictOf(p.paymentNo, { set: { money: "10.0" } })).report?.amount).toBe("10.0");
  });

  it("query answers the same report: unpaid, then paid; null for an order the gateway does not know", async () => {
    const { p } = await opened();
    const tradeNo = fake.payments.get(p.paymentNo)?.tradeNo;
    expect(await epayDriver.query!(channel, p)).toEqual({
      paymentNo: p.paymentNo,
      providerRef: tradeNo,
      paid: false,
      amount: "10.00",
      currency: "CNY",
    });
    fake.markPaid(p.paymentNo);
    expect(await epayDriver.query!(channel, p)).toMatchObject({ paid: true, providerRef: tradeNo });
    expect(await epayDriver.query!(channel, payment())).toBeNull();
  });

  it("the pay page's button marks it paid, notifies, and sends the browser back", async () => {
    const { p } = await opened();
    const before = receiver.verdicts.length;
    const res = await fetch(`${fake.url}/pay/${p.paymentNo}`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(p.returnUrl);
    expect(receiver.verdicts[before]?.report).toMatchObject({ paymentNo: p.paymentNo, paid: true });
  });

  it("refuses a notify with a repeated field and a hostile body without throwing anything else", () => {
    const req = (query: string, body = "", method = "GET") => ({
      method,
      query: new URLSearchParams(query),
      headers: new Headers(),
      rawBody: Buffer.from(body),
    });
    const sign = md5Sign({ pid: fake.pid, out_trade_no: "P", trade_no: "T", money: "1" }, fake.key, []);
    for (const r of [
      req(`pid=${fake.pid}&pid=1002&out_trade_no=P&trade_no=T&money=1&sign=${sign}`),
      req(""),
      req("", "%%%&&&=", "POST"),
      req("", `pid=${fake.pid}&sign[]=${sign}`, "POST"),
    ]) {
      expect(() => epayDriver.verify(channel, r)).toThrow(NotifyRefusedError);
    }
  });
});
