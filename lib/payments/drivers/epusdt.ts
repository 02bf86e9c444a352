import { z } from "zod";
import { formatAmount } from "../../protocol/amount";
import { GatewayError, type GatewayChannel, type PaymentDriver } from "./driver";
import { callGateway, looseText, readAnswer } from "./http";
import { md5Sign, readJsonFields, requireSignature, requiredField, type SignedFields } from "./signing";

// epusdt (USDT-TRC20, amounts in CNY). Create is POST
// /api/v1/order/create-transaction; the notify is a JSON POST signed over
// every field it carries. epusdt has no query API, so this driver has no
// `query` (the core then waits for the notify alone).

const UNSIGNED = ["signature"] as const;
/** epusdt's order states: 1 waiting, 2 paid, 3 expired. */
const PAID = "2";

function baseUrl(channel: GatewayChannel): string {
  if (!channel.gatewayUrl) throw new GatewayError("epusdt: the channel has no gateway URL");
  return channel.gatewayUrl.replace(/\/+$/, "");
}

const CreateAnswer = z.looseObject({
  status_code: looseText.refine((v) => v === "200"),
  data: z.looseObject({ trade_id: looseText.refine(Boolean), payment_url: z.string().regex(/^https?:\/\//i) }),
});

export const epusdtDriver: PaymentDriver = {
  name: "epusdt",
  successReply: "ok",

  async create(channel, payment) {
    const what = "epusdt create-transaction";
    const fields = {
      order_id: payment.paymentNo,
      amount: Number(formatAmount(payment.amountCents)),
      notify_url: payment.notifyUrl,
      redirect_url: payment.returnUrl,
    };
    // The amount is signed as it is sent: JSON and String() print a number alike (10.5, 10).
    const text: SignedFields = { ...fields, amount: String(fields.amount) };
    const body = { ...fields, signature: md5Sign(text, channel.key, UNSIGNED) };
    const answer = readAnswer(CreateAnswer, await callGateway(`${baseUrl(channel)}/api/v1/order/create-transaction`, what, body), what);
    return { payUrl: answer.data.payment_url, providerRef: answer.data.trade_id };
  },

  verify(channel, request) {
    const fields = readJsonFields(request.rawBody);
    requireSignature(fields, channel.key, "signature", UNSIGNED);
    return {
      paymentNo: requiredField(fields, "order_id"),
      providerRef: requiredField(fields, "trade_id"),
      paid: requiredField(fields, "status") === PAID,
      amount: requiredField(fields, "amount"),
      currency: channel.currency,
    };
  },
};
