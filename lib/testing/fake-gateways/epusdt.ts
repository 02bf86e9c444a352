// A fake epusdt on 127.0.0.1: POST /api/v1/order/create-transaction, the pay
// page, and the notify (a JSON POST signed over every field it carries).
// epusdt has no query API, so neither has this fake.

import { randomBytes } from "node:crypto";
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
  type FakeGateway,
  type NotifyOverrides,
} from "./common";

export interface FakeEpusdtPayment {
  paymentNo: string;
  tradeId: string;
  /** The CNY amount as created (a number on the wire). */
  amount: number;
  actualAmount: number;
  subject: string;
  notifyUrl: string;
  returnUrl: string;
  paid: boolean;
}

export interface FakeEpusdt extends FakeGateway<FakeEpusdtPayment, NotifyOverrides> {
  token: string;
  /** The create bodies received, as sent. */
  creates: Record<string, unknown>[];
}

const UNSIGNED = ["signature"];
const WALLET = "TWalletFake0000000000000000000000";

export async function startFakeEpusdt(opts: { token?: string } = {}): Promise<FakeEpusdt> {
  const fake: FakeEpusdt = {
    url: "",
    token: opts.token ?? "epusdt-test-api-token-0123456789",
    payments: new Map(),
    notified: [],
    creates: [],
    markPaid(paymentNo) {
      must(paymentNo).paid = true;
    },
    notify(paymentNo, overrides) {
      const p = must(paymentNo);
      const base = {
        trade_id: p.tradeId,
        order_id: p.paymentNo,
        amount: p.amount,
        actual_amount: p.actualAmount,
        token: WALLET,
        block_transaction_id: p.paid ? `tx${p.tradeId}` : "",
        status: p.paid ? 2 : 1,
      };
      const fields = signedNotify(withSet(base, overrides), fake.token, "signature", UNSIGNED, overrides);
      return postJsonNotify(fake, p.notifyUrl, paymentNo, fields);
    },
    close: () => Promise.resolve(),
  };
  const must = (paymentNo: string) => recorded(fake.payments, paymentNo, "epusdt");
  const server = await startLoopbackServer((req, body, res) => {
    if (handlePayPage(req, res, "epusdt", fake)) return;
    const json = req.method === "POST" ? parseJsonObject(body) : null;
    if (req.url === "/api/v1/order/create-transaction" && json) {
      fake.creates.push(json);
      if (json.signature !== fakeSign(scalarFields(json), fake.token, UNSIGNED)) {
        return sendJson(res, 400, { status_code: 401, message: "signature verification failed", data: null });
      }
      const paymentNo = String(json.order_id);
      let p = fake.payments.get(paymentNo);
      if (!p) {
        const amount = Number(json.amount);
        p = {
          paymentNo,
          tradeId: `${Date.now()}${randomBytes(4).toString("hex")}`,
          amount,
          actualAmount: Number((amount / 7.1).toFixed(4)),
          subject: `Order ${paymentNo}`,
          notifyUrl: String(json.notify_url),
          returnUrl: String(json.redirect_url),
          paid: false,
        };
        fake.payments.set(paymentNo, p);
      }
      return sendJson(res, 200, {
        status_code: 200,
        message: "success",
        data: {
          trade_id: p.tradeId,
          order_id: p.paymentNo,
          amount: p.amount,
          actual_amount: p.actualAmount,
          token: WALLET,
          expiration_time: Math.floor(Date.now() / 1000) + 600,
          payment_url: `${fake.url}/pay/${encodeURIComponent(paymentNo)}`,
        },
        request_id: randomBytes(8).toString("hex"),
      });
    }
    res.writeHead(404).end();
  });
  fake.url = server.origin;
  fake.close = server.close;
  return fake;
}
