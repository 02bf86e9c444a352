// Operator alerts (issue 25, docs/alerts.md).
import { z } from "zod";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { command, UsageError } from "./command";
import { secretFromFile, withSecret } from "./read-secret";
import { Int4IdTextSchema } from "../../lib/protocol/ids";
import { ChannelInputSchema } from "../../lib/alerts/add-channel";
import { RuleInputSchema } from "../../lib/alerts/set-rule";
import { TelegramBindingSchema } from "../../lib/alerts/bind-telegram-user";
import { SkuThresholdSchema } from "../../lib/alerts/set-sku-threshold";
import { UpstreamBalanceAlertSchema } from "../../lib/alerts/set-upstream-balance-alert";

const KINDS = ["telegram", "email", "webhook", "wecom", "dingtalk", "feishu"] as const;

export const commands = {
  "alerts:channel:add": command({
    usage:
      "alerts:channel:add --kind telegram|email|webhook|wecom|dingtalk|feishu [--name N] (telegram: --bot-token-file F --chat-id C[,D] [--api-base URL]; email: (--smtp-url URL | --smtp-url-file F) --from A --to A[,B]; others: (--url U | --url-file F))",
    options: {
      kind: { type: "string" },
      name: { type: "string" },
      ...secretFromFile("bot-token"),
      "chat-id": { type: "string" },
      "api-base": { type: "string" },
      "smtp-url": { type: "string" },
      ...secretFromFile("smtp-url"),
      from: { type: "string" },
      to: { type: "string" },
      url: { type: "string" },
      // Issue 22.8: a WeCom, DingTalk or Feishu robot URL carries its access token (stored sealed, add-channel.ts).
      ...secretFromFile("url"),
    },
    input: (v) => {
      const kind = v.kind;
      if (typeof kind !== "string" || !(KINDS as readonly string[]).includes(kind))
        throw new UsageError(`--kind must be one of ${KINDS.join(", ")}`);
      const withToken = withSecret({ ...v }, "bot-token");
      const all = withSecret(withSecret(withToken, "smtp-url"), "url");
      if (kind === "telegram")
        return { kind, name: all.name, botToken: all["bot-token"], chatId: all["chat-id"], apiBase: all["api-base"] };
      if (kind === "email") {
        const to =
          typeof all.to === "string"
            ? all.to
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean)
            : undefined;
        return { kind, name: all.name, smtpUrl: all["smtp-url"], from: all.from, to };
      }
      return { kind, name: all.name, url: all.url };
    },
    schema: ChannelInputSchema,
    run: async (a) => {
      const { addAlertChannel } = await import("../../lib/alerts/add-channel");
      const c = await addAlertChannel(a, { actor });
      return {
        id: c.id,
        name: c.name,
        kind: c.kind,
        config: c.config,
        ...(c.signing ? { signing_key_id: c.signing.key_id, signing_secret: c.signing.secret } : {}),
      };
    },
  }),
  "alerts:channel:list": command({
    usage: "alerts:channel:list",
    options: {},
    input: (v) => v,
    schema: z.object({}),
    run: async () => ({ channels: await (await import("../../lib/alerts/list-channels")).listAlertChannels() }),
  }),
  "alerts:channel:remove": command({
    usage: "alerts:channel:remove --id N",
    options: { id: { type: "string" } },
    input: (v) => v,
    schema: z.object({ id: Int4IdTextSchema }),
    run: async (a) => (await import("../../lib/alerts/remove-channel")).removeAlertChannel({ id: a.id }, { actor }),
  }),
  "alerts:test": command({
    usage: "alerts:test --id N",
    options: { id: { type: "string" } },
    input: (v) => v,
    schema: z.object({ id: Int4IdTextSchema }),
    run: async (a) => (await import("../../lib/alerts/test-channel")).testAlertChannel({ id: a.id }, { actor }),
  }),
  "alerts:rule:set": command({
    usage: "alerts:rule:set --event E [--channel N (--on | --off)] [--threshold X]",
    options: {
      event: { type: "string" },
      channel: { type: "string" },
      on: { type: "boolean" },
      off: { type: "boolean" },
      threshold: { type: "string" },
    },
    input: (v) => {
      if (v.on && v.off) throw new UsageError("give --on or --off, not both");
      return { event: v.event, channelId: v.channel, enabled: v.on ? true : v.off ? false : undefined, threshold: v.threshold };
    },
    schema: RuleInputSchema,
    run: async (a) => (await import("../../lib/alerts/set-rule")).setAlertRule(a, { actor }),
  }),
  "alerts:upstream-balance": command({
    usage: "alerts:upstream-balance --connection ID (--below 100.00 | --off)",
    options: { connection: { type: "string" }, below: { type: "string" }, off: { type: "boolean" } },
    input: (v) => {
      if ((v.below === undefined) === !v.off) throw new UsageError("give --below AMOUNT or --off");
      return { connectionId: v.connection, below: v.off ? null : v.below };
    },
    schema: UpstreamBalanceAlertSchema,
    run: async (a) =>
      (await import("../../lib/alerts/set-upstream-balance-alert")).setUpstreamBalanceAlert(
        { connectionId: a.connectionId, below: a.below === null ? null : String(a.below) },
        { actor },
      ),
  }),
  "alerts:list": command({
    usage: "alerts:list [--limit 100]",
    options: { limit: { type: "string" } },
    input: (v) => v,
    schema: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
    run: async (a) => ({ alerts: await (await import("../../lib/alerts/list-alerts")).listAlerts(a.limit) }),
  }),
  "sku:threshold": command({
    usage: "sku:threshold --sku-code C (--stock N | --default)",
    options: { "sku-code": { type: "string" }, stock: { type: "string" }, default: { type: "boolean" } },
    input: (v) => {
      if ((v.stock === undefined) === !v.default) throw new UsageError("give --stock N or --default");
      return { skuCode: v["sku-code"], stock: v.default ? null : v.stock };
    },
    schema: SkuThresholdSchema,
    run: async (a) => (await import("../../lib/alerts/set-sku-threshold")).setSkuThreshold(a, { actor }),
  }),
  "alerts:telegram:bind": command({
    usage: "alerts:telegram:bind --email E --telegram-user-id N",
    options: { email: { type: "string" }, "telegram-user-id": { type: "string" } },
    input: (v) => ({ email: v.email, telegramUserId: v["telegram-user-id"] }),
    schema: TelegramBindingSchema,
    run: async (a) => (await import("../../lib/alerts/bind-telegram-user")).bindTelegramUser(a, { actor }),
  }),
};
