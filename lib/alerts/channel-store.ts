import { decryptText } from "../crypto/secret-box";
import type { AlertChannel } from "../generated/prisma/client";
import type { AlertMessage } from "./format-message";
import { sendEmail } from "./channels/email";
import type { SendResult } from "./channels/send-result";
import { sendTelegram } from "./channels/telegram";
import { sendWebhook } from "./channels/webhook";

// Issue 25: what a channel row holds, opened for sending. `config` is what
// the console may show; the secrets (bot token, SMTP URL, webhook URL and
// signing secret) are one AES-256-GCM sealed JSON object.

export interface TelegramConfig {
  chatId: string;
  apiBase: string;
}
export interface EmailConfig {
  from: string;
  to: string[];
}
export interface WebhookConfig {
  host: string;
  keyId: string;
}
export type ChannelSecret = { botToken?: string; smtpUrl?: string; url?: string; signingSecret?: string; keyId?: string };

type ChannelRow = Pick<AlertChannel, "id" | "name" | "kind" | "config" | "secretCiphertext">;

/** Sends one message on one channel (never throws: a failure is a result). */
export async function sendOnChannel(channel: ChannelRow, m: AlertMessage, siteName: string, replyMarkup?: object): Promise<SendResult> {
  let secret: ChannelSecret;
  try {
    secret = JSON.parse(decryptText(channel.secretCiphertext)) as ChannelSecret;
  } catch {
    return { ok: false, error: "the channel's secret cannot be opened (SECRET_KEY changed?)", durationMs: 0 };
  }
  const config = channel.config as Record<string, unknown>;
  try {
    if (channel.kind === "telegram") {
      return await sendTelegram(config as unknown as TelegramConfig, { botToken: secret.botToken ?? "" }, m, siteName, replyMarkup);
    }
    if (channel.kind === "email") return await sendEmail(config as unknown as EmailConfig, { smtpUrl: secret.smtpUrl ?? "" }, m, siteName);
    return await sendWebhook(
      channel.kind,
      { url: secret.url ?? "", keyId: secret.keyId ?? "", signingSecret: secret.signingSecret ?? "" },
      m,
      siteName,
    );
  } catch {
    return { ok: false, error: "unexpected error while sending", durationMs: 0 };
  }
}
