import { sendCallback } from "../../callbacks/send-callback";
import { alertText, type AlertMessage } from "../format-message";
import type { SendResult } from "./send-result";

// Issue 25: webhooks. Every format is POSTed by the order callbacks' sender:
// signed with the D27 headers (the channel's own key id and secret), D29
// address policy checked at connect time, redirects never followed, a 2xx
// within the timeout is success. Retries follow the D28 schedule in
// send-alerts.ts. A format is one function from a message to a JSON body:
// add a chat robot by adding a line to FORMATS.

export type WebhookFormat = "webhook" | "wecom" | "dingtalk" | "feishu";

type Formatter = (m: AlertMessage, siteName: string, occurredAt: Date) => object;

const FORMATS: Record<WebhookFormat, Formatter> = {
  /** Our own JSON (docs/alerts.md). */
  webhook: (m, siteName, at) => ({
    event: "alert",
    kind: m.kind,
    site: siteName,
    title: m.title,
    text: m.lines.join("\n"),
    link: m.link,
    more: m.more,
    occurred_at: at.toISOString(),
  }),
  /** WeCom (企业微信) group robot: text message. */
  wecom: (m, siteName) => ({ msgtype: "text", text: { content: alertText(m, siteName) } }),
  /** DingTalk (钉钉) custom robot: text message. */
  dingtalk: (m, siteName) => ({ msgtype: "text", text: { content: alertText(m, siteName) } }),
  /** Feishu / Lark (飞书) custom bot: text message. */
  feishu: (m, siteName) => ({ msg_type: "text", content: { text: alertText(m, siteName) } }),
};

export function webhookBody(format: WebhookFormat, m: AlertMessage, siteName: string, occurredAt = new Date()): string {
  return JSON.stringify(FORMATS[format](m, siteName, occurredAt));
}

export async function sendWebhook(
  format: WebhookFormat,
  secret: { url: string; keyId: string; signingSecret: string },
  m: AlertMessage,
  siteName: string,
): Promise<SendResult> {
  const result = await sendCallback(secret.url, webhookBody(format, m, siteName), {
    apiKey: secret.keyId,
    apiSecret: secret.signingSecret,
  });
  return { ok: result.ok, error: result.error === null ? null : `webhook: ${result.error}`, durationMs: result.durationMs };
}
