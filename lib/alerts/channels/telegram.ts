import net from "node:net";
import { guardedDispatcher, RestrictedAddressError, restrictedReason } from "../../callbacks/address-policy";
import { HostResolutionError } from "../../net/resolve-host";
import { readCapped } from "../../net/read-capped";
import type { AlertMessage } from "../format-message";
import type { SendResult } from "./send-result";
import { telegramApiBaseProblem } from "./telegram-api-base";

// Issue 25: Telegram through the Bot API's sendMessage (HTML parse mode), by
// plain fetch: one request, our own timeout and our own error text (a
// library's error could carry the URL, and the URL carries the bot token).
// The API base is configurable: tests point it at a fake Bot API
// (lib/testing/fake-bot-api.ts); a self-hosted Bot API server works too.
// Issue 33.2: the base is https and its address obeys D29 at every
// connection (telegram-api-base.ts); an error is our own text and the HTTP
// status, never what the far side answered (it could be any service's body).

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

/** Our words for the Bot API's refusals (its `description` is not shown: issue 33.2). */
const REFUSALS: Record<number, string> = {
  400: "the request was refused (is the chat id right?)",
  401: "the bot token was refused",
  403: "the bot may not write to this chat",
  404: "no Bot API method here (is the api base right?)",
  429: "too many requests",
};

/** One Bot API method call; a failure is our own text and, when there was an answer, its HTTP status. */
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
  const failed = (why: string, errorCode?: number) => ({
    ok: false,
    error: `Telegram: ${why}`,
    durationMs: Date.now() - started,
    errorCode,
  });
  const problem = telegramApiBaseProblem(apiBase);
  if (problem) return failed(problem);
  const host = new URL(apiBase).hostname.replace(/^\[(.*)\]$/, "$1");
  // Node does not call `lookup` for an IP literal: checked here (a name is checked by the dispatcher's lookup).
  const literal = net.isIP(host) ? restrictedReason(host) : null;
  if (literal) return failed(`refused to connect: ${literal}`);
  let res: Response;
  try {
    res = await fetch(`${apiBase.replace(/\/+$/, "")}/bot${token}/${method}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      redirect: "manual",
      signal: signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]) : AbortSignal.timeout(timeoutMs),
      dispatcher: guardedDispatcher(),
    } as RequestInit);
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    if (e?.cause instanceof RestrictedAddressError || e?.cause instanceof HostResolutionError) return failed(e.cause.message);
    return failed(
      e?.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : `connection failed: ${e?.cause?.code ?? e?.name ?? "error"}`,
    );
  }
  let answer: { ok?: boolean; result?: unknown };
  try {
    const raw = await readCapped(res.body, {
      declaredLength: res.headers.get("content-length"),
      limit: MAX_ANSWER_BYTES,
      tooLarge: () => new Error("too large"),
    });
    answer = JSON.parse(raw.toString("utf8")) as typeof answer; // its fields are checked where read
  } catch {
    answer = {};
  }
  if (res.ok && answer?.ok === true) return { ok: true, error: null, durationMs: Date.now() - started, result: answer.result };
  const why = res.ok ? "the answer is not the Bot API's" : (REFUSALS[res.status] ?? "the request failed");
  return failed(`${why} (HTTP ${res.status})`, res.status);
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
