// Issue 36: payment channels and payments (docs/payments.md). Secrets only from files.
import { z } from "zod";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { Int4IdTextSchema } from "../../lib/protocol/ids";
import { ChannelInputSchema } from "../../lib/payments/channel-input";
import { ConfirmPaymentSchema } from "../../lib/payments/confirm-payment";
import { PaymentFilterSchema } from "../../lib/payments/list-payments";
import { command } from "./command";
import { secretFromFile, withSecret } from "./read-secret";

export const commands = {
  "payments:channel:add": command({
    usage:
      "payments:channel:add --driver epay|tokenpay|epusdt|stripe --name N [--gateway-url U] [--pid P] --key-file F [--webhook-secret-file F] [--api-base U] [--currency C] [--min A] [--max A] [--expire-minutes M]",
    options: {
      driver: { type: "string" },
      name: { type: "string" },
      "gateway-url": { type: "string" },
      pid: { type: "string" },
      ...secretFromFile("key"),
      ...secretFromFile("webhook-secret"),
      "api-base": { type: "string" },
      currency: { type: "string" },
      min: { type: "string" },
      max: { type: "string" },
      "expire-minutes": { type: "string" },
    },
    input: (v) => {
      const all = withSecret(withSecret({ ...v }, "key"), "webhook-secret");
      return {
        driver: all.driver,
        name: all.name,
        gatewayUrl: all["gateway-url"],
        merchantId: all.pid,
        key: all.key,
        webhookSecret: all["webhook-secret"],
        apiBase: all["api-base"],
        currency: all.currency,
        min: all.min,
        max: all.max,
        expireMinutes: all["expire-minutes"],
      };
    },
    flagOf: (path) =>
      ({
        gatewayUrl: "gateway-url",
        merchantId: "pid",
        key: "key-file",
        webhookSecret: "webhook-secret-file",
        apiBase: "api-base",
        expireMinutes: "expire-minutes",
      })[String(path[0])],
    schema: ChannelInputSchema,
    run: async (input) => {
      const { addChannel } = await import("../../lib/payments/add-channel");
      const { getSettings } = await import("../../lib/settings/get-settings");
      const { notifyUrl } = await import("../../lib/payments/payment-view");
      const channel = await addChannel({ input, actor });
      // Register this at the gateway.
      return { ...channel, notify_url: notifyUrl((await getSettings()).publicBaseUrl, channel.id) };
    },
  }),
  "payments:channel:list": command({
    usage: "payments:channel:list",
    options: {},
    input: (v) => v,
    schema: z.object({}),
    run: async () => ({ channels: await (await import("../../lib/payments/list-channels")).listChannels() }),
  }),
  "payments:channel:disable": command({
    usage: "payments:channel:disable --id N",
    options: { id: { type: "string" } },
    input: (v) => v,
    schema: z.object({ id: Int4IdTextSchema }),
    run: async (a) => (await import("../../lib/payments/set-channel-enabled")).setChannelEnabled({ id: a.id, enabled: false, actor }),
  }),
  "payments:list": command({
    usage: "payments:list [--status created|pending|paid|expired|failed|review] [--limit N]",
    options: { status: { type: "string" }, limit: { type: "string" } },
    input: (v) => v,
    schema: PaymentFilterSchema.pick({ status: true, limit: true }),
    run: async (a) => (await import("../../lib/payments/list-payments")).listPayments(a),
  }),
  "payments:query": command({
    usage: "payments:query --payment-no X",
    options: { "payment-no": { type: "string" } },
    input: (v) => ({ paymentNo: v["payment-no"] }),
    flagOf: () => "payment-no",
    schema: z.object({ paymentNo: z.string().trim().min(1, "is required").max(64) }),
    run: async (a) => (await import("../../lib/payments/query-payment")).queryPayment(a.paymentNo),
  }),
  "payments:confirm": command({
    usage: "payments:confirm --payment-no X --reference R",
    options: { "payment-no": { type: "string" }, reference: { type: "string" } },
    input: (v) => ({ paymentNo: v["payment-no"], reference: v.reference }),
    flagOf: (path) => (path[0] === "paymentNo" ? "payment-no" : undefined),
    schema: ConfirmPaymentSchema,
    run: async (a) => (await import("../../lib/payments/confirm-payment")).confirmPayment({ input: a, actor }),
  }),
};
