import { z } from "zod";
import { formatAmount } from "../../protocol/amount";
import {
  GatewayError,
  NotifyRefusedError,
  type GatewayChannel,
  type GatewayReport,
  type NotifyRequest,
  type PaymentDriver,
} from "./driver";
import { callGateway, looseText, readAnswer } from "./http";
import { md5Sign, requireSignature, requiredField, type SignedFields } from "./signing";

// epay-compatible gateways (彩虹易支付, MD5 v1). Create needs no call: the
// buyer's browser is sent to submit.php with the signed form as a query.
// The notify comes by GET (query) or POST (form); the active query is
// api.php?act=order, which takes the merchant key in its URL.

const UNSIGNED = ["sign", "sign_type"] as const;

function settings(channel: GatewayChannel): { base: string; pid: string } {
  if (!channel.gatewayUrl || !channel.merchantId) throw new GatewayError("epay: the channel has no gateway URL or merchant id");
  return { base: channel.gatewayUrl.replace(/\/+$/, ""), pid: channel.merchantId };
}

/** The notify's fields: the POST form when there is one, else the query. A repeated key is refused (which one was signed?). */
function notifyFields(request: NotifyRequest): SignedFields {
  const body = request.method.toUpperCase() === "POST" && request.rawBody.length > 0 ? request.rawBody.toString("utf8") : null;
  const params = body !== null ? new URLSearchParams(body) : request.query;
  const fields: SignedFields = Object.create(null) as SignedFields;
  for (const [k, v] of params) {
    if (Object.hasOwn(fields, k)) throw new NotifyRefusedError(`the field ${JSON.stringify(k.slice(0, 40))} is repeated`);
    fields[k] = v;
  }
  return fields;
}

const QueryAnswer = z.looseObject({
  code: looseText,
  pid: looseText.optional(),
  trade_no: looseText.optional(),
  out_trade_no: looseText.optional(),
  money: looseText.optional(),
  status: looseText.optional(),
});
const FoundOrder = z.looseObject({ pid: looseText, trade_no: looseText, out_trade_no: looseText, money: looseText, status: looseText });

export const epayDriver: PaymentDriver = {
  name: "epay",
  successReply: "success",

  create(channel, payment) {
    const { base, pid } = settings(channel);
    // `type` is left out: the gateway's page lets the buyer choose.
    const form: SignedFields = {
      pid,
      out_trade_no: payment.paymentNo,
      notify_url: payment.notifyUrl,
      return_url: payment.returnUrl,
      name: payment.subject,
      money: formatAmount(payment.amountCents),
    };
    const query = new URLSearchParams({ ...form, sign: md5Sign(form, channel.key, UNSIGNED), sign_type: "MD5" });
    return Promise.resolve({ payUrl: `${base}/submit.php?${query.toString()}` });
  },

  verify(channel, request): GatewayReport {
    const fields = notifyFields(request);
    requireSignature(fields, channel.key, "sign", UNSIGNED);
    // Signed, but with another merchant's key? No: with ours. Still, a notify about another pid is not ours to credit.
    if (!channel.merchantId || fields.pid !== channel.merchantId) throw new NotifyRefusedError("the pid is not this channel's merchant");
    return {
      paymentNo: requiredField(fields, "out_trade_no"),
      providerRef: requiredField(fields, "trade_no"),
      paid: fields.trade_status === "TRADE_SUCCESS",
      amount: requiredField(fields, "money"),
      currency: channel.currency,
    };
  },

  async query(channel, payment) {
    const { base, pid } = settings(channel);
    const what = "epay order query";
    const params = new URLSearchParams({ act: "order", pid, key: channel.key, out_trade_no: payment.paymentNo });
    const answer = readAnswer(QueryAnswer, await callGateway(`${base}/api.php?${params.toString()}`, what), what);
    if (answer.code !== "1") return null; // the gateway does not know the order
    const order = readAnswer(FoundOrder, answer, what);
    if (order.pid !== pid) throw new GatewayError(`${what}: the answer is about another merchant`);
    return {
      paymentNo: order.out_trade_no,
      providerRef: order.trade_no,
      paid: order.status === "1",
      amount: order.money,
      currency: channel.currency,
    };
  },
};
