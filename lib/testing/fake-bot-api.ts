import { startLoopbackServer } from "./loopback-server";

// A fake Telegram Bot API on 127.0.0.1 (issue 25): speaks the protocol of
// https://core.telegram.org/bots/api for the methods we call (sendMessage,
// getUpdates, answerCallbackQuery): POST /bot<token>/<method> with a JSON
// body, answers {"ok":true,"result":…} or {"ok":false,"error_code","description"}.
// A test queues updates for getUpdates and decides failures.

export interface SentMessage {
  token: string;
  chat_id: string | number;
  text: string;
  parse_mode?: string;
  reply_markup?: { inline_keyboard?: { text: string; callback_data?: string; url?: string }[][] };
}

export interface FakeBotApi {
  /** http://127.0.0.1:<port>: the channel's API base. */
  origin: string;
  /** The only token accepted (others get 401 Unauthorized, as Telegram answers). */
  token: string;
  messages: SentMessage[];
  answered: { callback_query_id: string; text?: string }[];
  /** Updates handed out by getUpdates (those with update_id >= offset). */
  updates: object[];
  /** Calls of getUpdates received (with their offset and long-poll timeout in seconds). */
  polls: { offset?: number; timeout?: number }[];
  /** getUpdates refused with 409 because another one was being held, as Telegram does. */
  conflicts: number;
  /** While > 0, sendMessage answers 502 and counts down (a Telegram outage). */
  failNext: number;
  close(): Promise<void>;
}

export async function startFakeBotApi(token = "123456:TEST-token-abcdefghijklmnopqrstu"): Promise<FakeBotApi> {
  const api: FakeBotApi = {
    origin: "",
    token,
    messages: [],
    answered: [],
    updates: [],
    polls: [],
    conflicts: 0,
    failNext: 0,
    close: () => Promise.resolve(),
  };
  let messageId = 0;
  let holding = false;
  const server = await startLoopbackServer((req, body, res) => {
    const reply = (status: number, json: object) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(json));
    };
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url ?? "");
    if (req.method !== "POST" || !m) return reply(404, { ok: false, error_code: 404, description: "Not Found" });
    if (m[1] !== api.token) return reply(401, { ok: false, error_code: 401, description: "Unauthorized" });
    let params: Record<string, unknown>;
    try {
      params = body.length ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>) : {};
    } catch {
      return reply(400, { ok: false, error_code: 400, description: "Bad Request: invalid JSON" });
    }
    switch (m[2]) {
      case "sendMessage": {
        if (api.failNext > 0) {
          api.failNext--;
          return reply(502, { ok: false, error_code: 502, description: "Bad Gateway" });
        }
        if (typeof params.text !== "string" || !params.text || params.chat_id === undefined) {
          return reply(400, { ok: false, error_code: 400, description: "Bad Request: message text is empty" });
        }
        api.messages.push({ token: m[1], ...(params as object) } as SentMessage);
        return reply(200, {
          ok: true,
          result: { message_id: ++messageId, date: Math.floor(Date.now() / 1000), chat: { id: params.chat_id }, text: params.text },
        });
      }
      case "getUpdates": {
        const offset = typeof params.offset === "number" ? params.offset : undefined;
        const timeout = typeof params.timeout === "number" ? params.timeout : 0;
        api.polls.push({ offset, timeout });
        const due = () => api.updates.filter((u) => offset === undefined || (u as { update_id: number }).update_id >= offset);
        if (due().length || !timeout) return reply(200, { ok: true, result: due() });
        // Telegram holds one getUpdates per bot and refuses another meanwhile.
        if (holding) {
          api.conflicts++;
          return reply(409, { ok: false, error_code: 409, description: "Conflict: terminated by other getUpdates request" });
        }
        // Long polling: held until an update is due or `timeout` seconds pass (or the caller goes away).
        holding = true;
        const until = Date.now() + timeout * 1000;
        const check = setInterval(() => {
          if (!due().length && Date.now() < until && !res.destroyed) return;
          clearInterval(check);
          holding = false;
          if (!res.destroyed) reply(200, { ok: true, result: due() });
        }, 20);
        check.unref();
        res.on("close", () => {
          clearInterval(check);
          holding = false;
        });
        return;
      }
      case "answerCallbackQuery":
        api.answered.push(params as { callback_query_id: string; text?: string });
        return reply(200, { ok: true, result: true });
      default:
        return reply(404, { ok: false, error_code: 404, description: "Not Found: method not found" });
    }
  });
  api.origin = server.origin;
  api.close = server.close;
  return api;
}
