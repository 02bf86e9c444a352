import { randomInt } from "node:crypto";
import { startLoopbackServer } from "../loopback-server";
import {
  fakeSign,
  handlePayPage,
  recorded,
  sendJson,
  sendNotify,
  sendPayPage,
  signedNotify,
  withSet,
  type FakeGateway,
  type NotifyOverrides,
} from "./common";

// A fake epay-compatible gateway (彩虹易支付, MD5 v1) on 127.0.0.1: submit.php
// (the buyer's page, reached by the signed GET the driver builds), api.php?act=order
// (the active query) and the notify, sent by GET like the real one (POST form on request).

export interface FakeEpayPayment {
  paymentNo: string;
  tradeNo: string;
  amount: string;
  subject: string;
  type: string;
  notifyUrl: string;
  returnUrl: string;
  paid: boolean;
  addtime: string;
  endtime: string | null;
}

/** `payments` holds the orders by out_trade_no, recorded when the buyer opens submit.php; notify() sends a GET unless asked to POST. */
export interface FakeEpay extends FakeGateway<FakeEpayPayment, NotifyOverrides & { method?: "GET" | "POST" }> {
  pid: string;
  key: string;
}

const now = () => new Date().toISOString().replace("T", " ").slice(0, 19);

export async function startFakeEpay(opts: { pid?: string; key?: string } = {}): Promise<FakeEpay> {
  const fake: FakeEpay = {
    url: "",
    pid: opts.pid ?? "1001",
    key: opts.key ?? "epay-test-merchant-key-0123456789",
    payments: new Map(),
    notified: [],
    markPaid(paymentNo) {
      const p = recorded(fake.payments, paymentNo, "epay");
      p.paid = true;
      p.endtime ??= now();
    },
    notify(paymentNo, overrides) {
      const p = recorded(fake.payments, paymentNo, "epay");
      const base = { pid: fake.pid, trade_no: p.tradeNo, out_trade_no: p.paymentNo, type: p.type, name: p.subject, money: p.amount };
      const fields = withSet({ ...base, trade_status: "TRADE_SUCCESS" }, overrides);
      const params = new URLSearchParams(
        Object.entries({ ...signedNotify(fields, fake.key, "sign", ["sign", "sign_type"], overrides), sign_type: "MD5" }).map(([k, v]) => [
          k,
          String(v),
        ]),
      );
      for (const k of overrides?.drop ?? []) params.delete(k);
      if (overrides?.method === "POST") {
        const headers = { "content-type": "application/x-www-form-urlencoded" };
        return sendNotify(fake, p.notifyUrl, paymentNo, { method: "POST", body: params.toString(), headers });
      }
      return sendNotify(fake, `${p.notifyUrl}${p.notifyUrl.includes("?") ? "&" : "?"}${params.toString()}`, paymentNo, { method: "GET" });
    },
    close: () => Promise.resolve(),
  };
  const server = await startLoopbackServer((req, body, res) => {
    if (handlePayPage(req, res, "epay", fake)) return;
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.pathname === "/submit.php") {
      const params = req.method === "POST" ? new URLSearchParams(body.toString("utf8")) : url.searchParams;
      const form = Object.fromEntries(params);
      if (form.pid !== fake.pid || form.sign !== fakeSign(form, fake.key, ["sign", "sign_type"])) {
        res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("签名校验失败");
        return;
      }
      let p = fake.payments.get(form.out_trade_no);
      if (!p) {
        p = {
          paymentNo: form.out_trade_no,
          tradeNo: `2026${Date.now()}${randomInt(1000, 9999)}`,
          amount: form.money,
          subject: form.name,
          type: form.type || "alipay",
          notifyUrl: form.notify_url,
          returnUrl: form.return_url,
          paid: false,
          addtime: now(),
          endtime: null,
        };
        fake.payments.set(p.paymentNo, p);
      }
      return sendPayPage(res, "epay", p);
    }
    if (url.pathname === "/api.php" && url.searchParams.get("act") === "order") {
      const q = url.searchParams;
      if (q.get("pid") !== fake.pid || q.get("key") !== fake.key) return sendJson(res, 200, { code: -3, msg: "KEY校验失败" });
      const p = fake.payments.get(q.get("out_trade_no") ?? "");
      if (!p) return sendJson(res, 200, { code: -1, msg: "订单号不存在" });
      return sendJson(res, 200, {
        code: 1,
        msg: "查询订单号成功！",
        trade_no: p.tradeNo,
        out_trade_no: p.paymentNo,
        type: p.type,
        pid: /^\d+$/.test(fake.pid) ? Number(fake.pid) : fake.pid, // the real one answers an integer
        addtime: p.addtime,
        endtime: p.endtime,
        name: p.subject,
        money: p.amount,
        status: p.paid ? 1 : 0,
      });
    }
    res.writeHead(404).end();
  });
  fake.url = server.origin;
  fake.close = server.close;
  return fake;
}
