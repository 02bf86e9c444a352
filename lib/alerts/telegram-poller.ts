import pg from "pg";
import { log } from "../log";
import { callBotApi } from "./channels/telegram";
import { handleTelegramUpdates, telegramChannels, type TelegramChannel } from "./telegram-updates";

// Issue 25.4: the review alert's buttons need Telegram's updates. Telegram
// answers 409 Conflict to a getUpdates while another is held for the same
// bot, so the whole site holds ONE long poll per bot: each worker process
// (TELEGRAM_POLLING=true) starts this poller, and only the one holding the
// PostgreSQL advisory lock POLLER_LOCK polls; it holds it on a connection of
// its own for as long as it runs (a session lock: it goes with the session,
// so a crashed holder's place is taken by another process within RETRY_MS).
// Each call is a held getUpdates (`timeout` POLL_SECONDS): a press arrives at
// once, and an idle site costs one request per bot every POLL_SECONDS.
// stop() (worker shutdown, decision 0040) aborts the held request and
// releases the lock: nothing is left behind.

const POLLER_LOCK = "cardkey:telegram-poller";
export const POLL_SECONDS = 25;
const RETRY_MS = 5_000;

export interface TelegramPoller {
  stop(): Promise<void>;
}

export function startTelegramPoller(connectionString: string, opts: { pollSeconds?: number; retryMs?: number } = {}): TelegramPoller {
  const pollSeconds = opts.pollSeconds ?? POLL_SECONDS;
  const retryMs = opts.retryMs ?? RETRY_MS;
  const abort = new AbortController();
  const done = (async () => {
    while (!abort.signal.aborted) {
      try {
        await holdAndPoll(connectionString, abort.signal, pollSeconds, retryMs);
      } catch (err) {
        if (!abort.signal.aborted) log.warn({ component: "alerts", err: String((err as Error)?.message ?? err) }, "telegram poller failed");
      }
      await pause(retryMs, abort.signal);
    }
  })();
  return {
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}

async function holdAndPoll(connectionString: string, stop: AbortSignal, pollSeconds: number, retryMs: number): Promise<void> {
  const session = new pg.Client({ connectionString, application_name: "cardkey-telegram-poller" });
  const lost = new AbortController();
  session.on("error", () => lost.abort()); // the lock went with the session: stop polling at once
  await session.connect();
  try {
    const { rows } = await session.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS held", [POLLER_LOCK]);
    if (!rows[0].held) return; // another process polls; try again later (it may stop)
    log.info({ component: "alerts" }, "telegram poller: this process holds the long poll");
    const signal = AbortSignal.any([stop, lost.signal]);
    while (!signal.aborted) {
      const channels = await telegramChannels();
      if (!channels.length) await pause(retryMs, signal);
      else await Promise.all(channels.map((ch) => pollOnce(ch, signal, pollSeconds, retryMs)));
    }
  } finally {
    await session.end().catch(() => undefined); // ends the session, and with it the lock
  }
}

/** One held getUpdates for one bot, then its updates handled. */
async function pollOnce(ch: TelegramChannel, signal: AbortSignal, pollSeconds: number, retryMs: number): Promise<void> {
  const answer = await callBotApi(
    ch.apiBase,
    ch.token,
    "getUpdates",
    { offset: ch.offset, timeout: pollSeconds, allowed_updates: ["callback_query"] },
    (pollSeconds + 10) * 1000,
    signal,
  );
  if (signal.aborted) return;
  if (!answer.ok || !Array.isArray(answer.result)) {
    // 409: someone else polls this bot (another site with the same token); the error text never carries the token.
    log.warn({ component: "alerts", channelId: ch.id, error: answer.error }, "telegram getUpdates failed");
    return pause(retryMs, signal);
  }
  await handleTelegramUpdates(ch, answer.result);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}
