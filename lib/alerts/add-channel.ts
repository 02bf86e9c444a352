import crypto from "node:crypto";
import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { assertCallbackUrlAllowed, assertHostAllowed, bareHost } from "../callbacks/address-policy";
import { encryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { appError } from "../errors";
import { DEFAULT_TELEGRAM_API, MAX_TELEGRAM_CHATS } from "./channels/telegram";
import { telegramApiBaseProblem } from "./channels/telegram-api-base";
import type { ChannelSecret } from "./channel-store";
import { parseSmtpUrl, smtpUrlProblem } from "./smtp-url";

// Issue 25: a new alert channel (console form, CLI alerts:channel:add). The
// secrets are sealed before they reach the database; what the console shows
// (chat id, from/to, the webhook's host) is kept apart. A webhook gets its own
// key id and signing secret, returned here once (the receiver verifies the
// D27 signature with them).
// Issue 33: the SMTP URL is read by our parser (smtp-url.ts) and the Telegram
// API base by its rule (telegram-api-base.ts), the same checks every send
// makes again; their hosts, like a webhook's, obey the D29 address policy.

const HttpUrl = (what: string) =>
  z
    .string()
    .trim()
    .max(2000)
    .refine((s) => {
      try {
        const u = new URL(s);
        return u.protocol === "http:" || u.protocol === "https:";
      } catch {
        return false;
      }
    }, `${what} must be an http(s) URL`);
const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/, "must be an e-mail address");
/** A zod check from one of our "why not, or null" rules: the rule's own one-line text is the message. */
const fromProblem =
  (problem: (s: string) => string | null) =>
  (ctx: z.core.ParsePayload<string>): void => {
    const why = problem(ctx.value);
    if (why) ctx.issues.push({ code: "custom", message: why, input: ctx.value });
  };
const Name = z.string().trim().min(1, "must not be empty").max(100).optional();

export const ChannelInputSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("telegram"),
    name: Name,
    botToken: z
      .string()
      .trim()
      .regex(/^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$/, "bot token must look like 123456:ABC… (from @BotFather)"),
    // Issue 25.1 "chat id(s)": one or several chats (a group and an on-call person), comma-separated.
    chatId: z
      .string()
      .transform((s) => s.split(",").map((c) => c.trim()))
      .pipe(
        z
          .array(z.string().regex(/^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$/, "chat id must be a number or @channelname"))
          .min(1)
          .max(MAX_TELEGRAM_CHATS, `at most ${MAX_TELEGRAM_CHATS} chat ids`)
          .refine((ids) => new Set(ids).size === ids.length, "a chat id is given twice"),
      )
      .transform((ids) => ids.join(",")),
    apiBase: z.string().trim().max(2000).check(fromProblem(telegramApiBaseProblem)).optional(),
  }),
  z.strictObject({
    kind: z.literal("email"),
    name: Name,
    smtpUrl: z.string().trim().max(2000).check(fromProblem(smtpUrlProblem)),
    from: Email,
    to: z.array(Email).min(1, "at least one recipient").max(20),
  }),
  ...(["webhook", "wecom", "dingtalk", "feishu"] as const).map((kind) =>
    z.strictObject({ kind: z.literal(kind), name: Name, url: HttpUrl("url") }),
  ),
]);
export type ChannelInput = z.input<typeof ChannelInputSchema>;
export const CHANNEL_KINDS = ["telegram", "email", "webhook", "wecom", "dingtalk", "feishu"] as const;

export interface AddedChannel {
  id: number;
  name: string;
  kind: string;
  config: Record<string, unknown>;
  /** Webhook kinds only, shown once: what the receiver verifies signatures with. */
  signing: { key_id: string; secret: string } | null;
}

export async function addAlertChannel(input: ChannelInput, { actor }: { actor: Actor }): Promise<AddedChannel> {
  const parsed = ChannelInputSchema.safeParse(input);
  if (!parsed.success)
    throw appError("bad_request", parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
  const p = parsed.data;
  let config: Record<string, string | string[]>;
  let secret: ChannelSecret;
  let signing: AddedChannel["signing"] = null;
  if (p.kind === "telegram") {
    // D29 at add time for a base the operator gave (the default is Telegram's own); again at every call.
    if (p.apiBase) await assertHostAllowed(bareHost(new URL(p.apiBase)), "api base");
    config = { chatId: p.chatId, apiBase: (p.apiBase ?? DEFAULT_TELEGRAM_API).replace(/\/+$/, "") };
    secret = { botToken: p.botToken };
  } else if (p.kind === "email") {
    await assertHostAllowed(parseSmtpUrl(p.smtpUrl).host, "SMTP host"); // D29, again at every send
    config = { from: p.from, to: p.to };
    secret = { smtpUrl: p.smtpUrl };
  } else {
    await assertCallbackUrlAllowed(p.url, undefined, "url"); // D29, again at every send
    const keyId = `alerts_${crypto.randomBytes(8).toString("hex")}`;
    const signingSecret = crypto.randomBytes(32).toString("base64url");
    config = { host: new URL(p.url).host, keyId };
    secret = { url: p.url, keyId, signingSecret };
    if (p.kind === "webhook") signing = { key_id: keyId, secret: signingSecret };
  }
  const name = p.name ?? `${p.kind} ${p.kind === "telegram" ? p.chatId : p.kind === "email" ? p.to[0] : new URL(p.url).host}`;
  const row = await db().$transaction(async (tx) => {
    const created = await tx.alertChannel.create({
      data: { name, kind: p.kind, config: config, secretCiphertext: encryptText(JSON.stringify(secret)) },
      select: { id: true },
    });
    await writeAuditLog(tx, {
      actor,
      action: "alert.channel.add",
      targetType: "alert_channel",
      targetId: String(created.id),
      details: { kind: p.kind, name },
    });
    return created;
  });
  return { id: row.id, name, kind: p.kind, config, signing };
}
