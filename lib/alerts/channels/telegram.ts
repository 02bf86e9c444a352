import { readCapped } from "../../net/read-capped";
import { resolvingAgent } from "../../net/resolving-agent";
import type { AlertMessage } from "../format-message";
import type { SendResult } from "./send-result";

// Issue 25: Telegram through the Bot API's sendMessage (HTML parse mode), by
// plain fetch: one request, our own timeout and our own error text (a
// library's error could carry the URL, and the URL carries the bot token).
// The API base is configurable: tests point it at a fake Bot API
// (lib/testing/fake-bot-api.ts); a self-hosted Bot API server works too.

export const DEFAULT_TELEGRAM_API = "https://api.telegram.org";
const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;
/** Telegram refuses texts over 4096 characters. */
const MAX_TEXT = 4000;

/** Escapes text for Telegram's HTML parse mode (only <, > and & are special). */
export const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function telegramHtml(m: AlertMessage, siteName: string): string {
  const text = [`<b>${escapeHtml(`[${siteName}] ${m.title}`)}</b>`, ...m.lines.map(escapeHtml)].join("\n");
  const link = m.link ? `\n<a href="${escapeHtml(m.link)}">${escapeHtml(m.link)}</a>` : "";
  return (text.length + link.length > MAX_TEXT ? text.slice(0, MAX_TEXT - link.length - 1) + "…" : text) + link;
}

/** One Bot API method call; the answer's `description` is the error text, with the token removed should it appear. */
export async function callBotApi(
  apiBase: string,
  token: string,
  method: string,
  body: object,
  timeoutMs = TIMEOUT_MS,
  /** Ends the call early (a long poll at shutdown, telegram-poller.ts). */
  signal?: AbortSignal,
): Promise<SendResult & { result?: unknown; errorCode?: number }> {
  const started = Date.now();
  const scrub = (s: string) => s.split(token).join("<token>").slice(0, 300);
  let res: Response;
  try {
    res = await fetch(`${apiBase.replace(/\/+$/, "")}/bot${token}/${method}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      redirect: "manual",
      signal: signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]) : AbortSignal.timeout(timeoutMs),
      dispatcher: resolvingAgent(),
    } as RequestInit);
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    const why =
      e?.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : `connection failed: ${e?.cause?.code ?? e?.name ?? "error"}`;
    return { ok: false, error: `Telegram: ${why}`, durationMs: Date.now() - started };
  }
  let answer: { ok?: boolean; description?: string; result?: unknown };
  try {
    const raw = await readCapped(res.body, {
      declaredLength: res.headers.get("content-length"),
      limit: MAX_ANSWER_BYTES,
      tooLarge: () => new Error("too large"),
    });
    answer = JSON.parse(raw.toString("utf8"));
  } catch {
    answer = {};
  }
  if (res.ok && answer.ok === true) return { ok: true, error: null, durationMs: Date.now() - started, result: answer.result };
  const description = typeof answer.description === "string" ? scrub(answer.description) : `HTTP ${res.status}`;
  return { ok: false, error: `Telegram: ${description}`, durationMs: Date.now() - started, errorCode: res.status };
}

/** A channel's chats, comma-separated in `chatId` (add-channel.ts checks each). */
export const MAX_TELEGRAM_CHATS = 10;

/**
 * The message to each of the channel's chats, in order. Sent when every chat
 * took it; otherwise the first refusal, naming its chat, and the whole send
 * is retried (a chat that took it may get it again: delivery is at least
 * once, decision 0041).
 */
export async function sendTelegram(
  config: { chatId: string; apiBase?: string },
  secret: { botToken: string },
  m: AlertMessage,
  siteName: string,
  replyMarkup?: object,
): Promise<SendResult> {
  const started = Date.now();
  const chats = config.chatId.split(",");
  let failed: SendResult | null = null;
  for (const chat of chats) {
    const r = await callBotApi(config.apiBase || DEFAULT_TELEGRAM_API, secret.botToken, "sendMessage", {
      chat_id: chat,
      text: telegramHtml(m, siteName),
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      ...(replyMarkup ? { reply_markup: replyMarkup } : {}),
    });
    if (!r.ok && !failed) failed = chats.length > 1 ? { ...r, error: `${r.error} (chat ${chat})` } : r;
  }
  return failed ? { ...failed, durationMs: Date.now() - started } : { ok: true, error: null, durationMs: Date.now() - started };
}
