// A fake TokenPay on 127.0.0.1: POST /CreateOrder, POST /Query {Id, Signature},
// the pay page, and the notify: a JSON POST signed over every field it carries.

import { randomUUID } from "node:crypto";
import { startLoopbackServer } from "../loopback-server";
import {
  fakeSign,
  handlePayPage,
  parseJsonObject,
  scalarFields,
  sendJson,
  postJsonNotify,
  recorded,
  signedNotify,
  withSet,
} from "./common";
import type { FakeGateway, NotifyOverrides } from "./common";

/** An order as the fake keeps it. */
export interface FakeTokenpayPayment {
  paymentNo: string;
  id: string;
  /** ActualAmount as created (a number on the wire). */
  actualAmount: number;
  amount: string;
  subject: string;
  currency: string;
  notifyUrl: string;
  returnUrl: string;
  paid: boolean;
  payTime: string | null;
}

export interface FakeTokenpay extends FakeGateway<FakeTokenpayPayment, NotifyOverrides> {
  token: string;
  /** The CreateOrder bodies received, as sent. */
  creates: Record<string, unknown>[];
}

const UNSIGNED = ["Signature"];

export async function startFakeTokenpay(opts: { token?: string } = {}): Promise<FakeTokenpay> {
  const fake: FakeTokenpay = {
    url: "",
    token: opts.token ?? "tokenpay-test-api-token-0123456789",
    payments: new Map(),
    notified: [],
    creates: [],
    markPaid(paymentNo) {
      const p = must(paymentNo);
      p.paid = true;
      p.payTime ??= new Date().toISOString();
    },
    notify(paymentNo, overrides) {
      const p = must(paymentNo);
      const fields = signedNotify(withSet(orderFields(p), overrides), fake.token, "Signature", UNSIGNED, overrides);
      return postJsonNotify(fake, p.notifyUrl, paymentNo, fields);
    },
    close: () => Promise.resolve(),
  };
  const must = (paymentNo: string) => recorded(fake.payments, paymentNo, "TokenPay");
  const orderFields = (p: FakeTokenpayPayment): Record<string, string | number> => ({
    Id: p.id,
    BlockTransactionId: p.paid ? `tx${p.id.replace(/-/g, "")}` : "",
    OutOrderId: p.paymentNo,
    OrderUserKey: p.paymentNo,
    PayTime: p.payTime ?? "",
    BlockchainName: "TRON",
    Currency: p.currency,
    CurrencyName: "USDT",
    FromAddress: p.paid ? "TFromAddressFake000000000000000000" : "",
    ToAddress: "TToAddressFake00000000000000000000",
    Amount: p.amount,
    ActualAmount: p.actualAmount,
    Status: p.paid ? 1 : 0,
    PassThroughInfo: "",
  });
  const server = await startLoopbackServer((req, body, res) => {
    if (handlePayPage(req, res, "TokenPay", fake)) return;
    const json = req.method === "POST" ? parseJsonObject(body) : null;
    const signatureOk = json !== null && json.Signature === fakeSign(scalarFields(json), fake.token, UNSIGNED);
    if (req.url === "/CreateOrder" && json) {
      fake.creates.push(json);
      if (!signatureOk) return sendJson(res, 200, { success: false, message: "签名验证失败！", data: null });
      const paymentNo = String(json.OutOrderId);
      let p = fake.payments.get(paymentNo);
      if (!p) {
        const actual = Number(json.ActualAmount);
        p = {
          paymentNo,
          id: randomUUID(),
          actualAmount: actual,
          amount: (actual / 7.1).toFixed(2),
          subject: `Order ${paymentNo}`,
          currency: String(json.Currency),
          notifyUrl: String(json.NotifyUrl),
          returnUrl: String(json.RedirectUrl),
          paid: false,
          payTime: null,
        };
        fake.payments.set(paymentNo, p);
      }
      return sendJson(res, 200, {
        success: true,
        message: "创建订单成功！",
        data: `${fake.url}/pay/${encodeURIComponent(paymentNo)}`,
        info: { Id: p.id, ActualAmount: p.actualAmount, Amount: p.amount, ToAddress: "TToAddressFake00000000000000000000" },
      });
    }
    if (req.url === "/Query" && json) {
      if (!signatureOk) return sendJson(res, 200, { success: false, message: "签名验证失败！" });
      const p = [...fake.payments.values()].find((x) => x.id === json.Id);
      if (!p) return sendJson(res, 200, { success: false, message: "订单不存在！" });
      const fields = orderFields(p);
      return sendJson(res, 200, { success: true, message: "", data: { ...fields, Signature: fakeSign(fields, fake.token, UNSIGNED) } });
    }
    res.writeHead(404).end();
  });
  fake.url = server.origin;
  fake.close = server.close;
  return fake;
}
