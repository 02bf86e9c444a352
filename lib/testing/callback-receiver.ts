import http from "node:http";
import { startLoopbackServer } from "./loopback-server";

export interface ReceivedCallback {
  method: string;
  /** Path with query, as requested. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface CallbackReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  received: ReceivedCallback[];
  /** Decides each answer; default 200. */
  respond: (req: ReceivedCallback, index: number) => { status: number; headers?: Record<string, string>; delayMs?: number };
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request (loopback only, per the test rules). */
export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const receiver: CallbackReceiver = { origin: "", received: [], respond: () => ({ status: 200 }), close: () => Promise.resolve() };
  const server = await startLoopbackServer((req, body, res) => {
    const rec = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: body.toString("utf8") };
    const index = receiver.received.push(rec) - 1;
    const answer = receiver.respond(rec, index);
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end("ok");
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
    else send();
  });
  receiver.origin = server.origin;
  receiver.close = server.close;
  return receiver;
}

/** Polls `check` until it returns a truthy value or the time is up (bounded loop). */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
  stepMs = 50,
): Promise<Exclude<T, null | undefined | false | 0 | "">> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, null | undefined | false | 0 | "">;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
