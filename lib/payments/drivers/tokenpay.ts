import { z } from "zod";
import { formatAmount } from "../../protocol/amount";
import { GatewayError, NotifyRefusedError, type GatewayChannel, type GatewayReport, type PaymentDriver } from "./driver";
import { callGateway, looseText, readAnswer } from "./http";
import { md5Sign, readJsonFields, requireSignature, requiredField, type SignedFields } from "./signing";

// TokenPay (a USDT/TRX gateway). Create is POST /CreateOrder; the notify is a
// JSON POST signed over every field it carries; the active query is
// POST /Query with the order's Id. Signature rule: see md5Sign.

const UNSIGNED = ["Signature"] as const;

function baseUrl(channel: GatewayChannel): string {
  if (!channel.gatewayUrl) throw new GatewayError("TokenPay: the channel has no gateway URL");
  return channel.gatewayUrl.replace(/\/+$/, "");
}

/** The fields as sent, each as the text TokenPay signs (null and empty are dropped by md5Sign). */
function signed<T extends Record<string, string | number>>(fields: T, token: string): T & { Signature: string } {
  const text: SignedFields = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  return { ...fields, Signature: md5Sign(text, token, UNSIGNED) };
}

/** A notify's or a query answer's fields, checked and read (the same fields in both). */
function report(channel: GatewayChannel, fields: SignedFields, signatureRequired: boolean): GatewayReport {
  if (signatureRequired || fields.Signature) requireSignature(fields, channel.key, "Signature", UNSIGNED);
  const status = requiredField(fields, "Status");
  return {
    paymentNo: requiredField(fields, "OutOrderId"),
    providerRef: requiredField(fields, "Id"),
    paid: status === "1",
    amount: requiredField(fields, "ActualAmount"),
    currency: Object.hasOwn(fields, "Currency") && fields.Currency ? fields.Currency : channel.currency,
  };
}

const PayData = z.union([
  z.string(),
  z.looseObject({ PaymentUrl: z.string().optional(), paymentUrl: z.string().optional(), Id: looseText.optional() }),
]);
const CreateAnswer = z.looseObject({
  success: z.literal(true),
  data: PayData,
  info: z.looseObject({ Id: looseText.optional() }).nullish(),
});
const QueryAnswer = z.looseObject({ success: z.boolean().optional(), data: z.unknown().optional() });

/** A query answer's order fields as signed text; null when it holds no order. */
function orderFields(order: unknown): SignedFields | null {
  if (typeof order !== "object" || order === null || Array.isArray(order)) return null;
  const entries = Object.entries(order).filter(([, v]) => typeof v === "string" || typeof v === "boolean" || v === null);
  const fields: SignedFields = Object.fromEntries(entries.map(([k, v]) => [k, v === null ? "" : String(v)]));
  return fields.OutOrderId ? fields : null;
}

export const tokenpayDriver: PaymentDriver = {
  name: "tokenpay",
  successReply: "ok",

  async create(channel, payment) {
    const what = "TokenPay CreateOrder";
    const body = signed(
      {
        OutOrderId: payment.paymentNo,
        OrderUserKey: payment.paymentNo,
        ActualAmount: Number(formatAmount(payment.amountCents)),
        Currency: channel.currency,
        NotifyUrl: payment.notifyUrl,
        RedirectUrl: payment.returnUrl,
      },
      channel.key,
    );
    const answer = readAnswer(CreateAnswer, await callGateway(`${baseUrl(channel)}/CreateOrder`, what, body), what);
    const data = answer.data;
    // TokenPay answers the pay page in `data` and the order in `info`; some versions put the order in `data`.
    const payUrl = typeof data === "string" ? data : (data.PaymentUrl ?? data.paymentUrl ?? "");
    const id = (typeof data === "string" ? undefined : data.Id) ?? answer.info?.Id;
    if (!/^https?:\/\//i.test(payUrl)) throw new GatewayError(`${what}: no http(s) pay URL in the answer`);
    return id ? { payUrl, providerRef: id } : { payUrl };
  },

  verify(channel, request) {
    return report(channel, readJsonFields(request.rawBody), true);
  },

  async query(channel, payment) {
    if (!payment.providerRef) return null; // TokenPay's query takes its own Id
    const what = "TokenPay Query";
    const body = signed({ Id: payment.providerRef }, channel.key);
    const answer = readAnswer(QueryAnswer, await callGateway(`${baseUrl(channel)}/Query`, what, body), what);
    if (answer.success === false) return null;
    const fields = orderFields(answer.data ?? answer);
    if (!fields) return null;
    // TokenPay versions differ in whether they sign the answer: one that carries a Signature is checked like a notify.
    try {
      return report(channel, fields, false);
    } catch (err) {
      if (err instanceof NotifyRefusedError) throw new GatewayError(`${what}: ${err.why}`);
      throw err;
    }
  },
};
