import http from "node:http";
import { startLoopbackServer } from "./loopback-server";

/**
 * What the proxy does with one request:
 * - "pass": forward and return the answer;
 * - "forward-then-500": forward (the target processes it), then answer 500 instead (a lost response);
 * - "forward-then-hang": forward, then never answer (the caller times out; the target did the work);
 * - "500": answer 500 without forwarding;
 * - "hang": never forward, never answer.
 */
export type Fault = "pass" | "forward-then-500" | "forward-then-hang" | "500" | "hang";

export interface ProxiedRequest {
  method: string;
  /** Path with query. */
  url: string;
  body: string;
  fault: Fault;
  /** Status the target answered, when forwarded. */
  targetStatus?: number;
}

export interface FaultProxy {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Where requests go; may be set after start (e.g. a server started later). */
  target: string;
  requests: ProxiedRequest[];
  fault: (req: { method: string; url: string; body: string }, index: number) => Fault;
  /** Milliseconds to wait before forwarding each request (a slow supplier). */
  delayMs: number;
  close(): Promise<void>;
}

/** A tiny HTTP proxy on 127.0.0.1 that injects faults in front of a loopback server (tests only). */
export async function startFaultProxy(target = ""): Promise<FaultProxy> {
  const proxy: FaultProxy = { origin: "", target, requests: [], fault: () => "pass", delayMs: 0, close: () => Promise.resolve() };
  const server = await startLoopbackServer((req, body, res) => {
    const base = { method: req.method ?? "GET", url: req.url ?? "/", body: body.toString("utf8") };
    const fault = proxy.fault(base, proxy.requests.length);
    const record: ProxiedRequest = { ...base, fault };
    proxy.requests.push(record);
    if (fault === "hang") return;
    if (fault === "500")
      return void res
        .writeHead(500, { "Content-Type": "application/json" })
        .end('{"ok":false,"error_code":"internal_error","error_message":"injected"}');
    const headers = { ...req.headers };
    delete headers.host;
    const forward = () => {
      const out = http.request(new URL(base.url, proxy.target), { method: base.method, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (c: Buffer) => parts.push(c));
        answer.on("end", () => {
          record.targetStatus = answer.statusCode;
          if (fault === "forward-then-hang") return;
          if (fault === "forward-then-500")
            return void res.writeHead(500).end('{"ok":false,"error_code":"internal_error","error_message":"injected"}');
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(parts));
        });
      });
      out.on("error", () => {
        if (!res.headersSent) res.writeHead(502).end();
      });
      out.end(body);
    };
    if (proxy.delayMs) setTimeout(forward, proxy.delayMs);
    else forward();
  });
  proxy.origin = server.origin;
  proxy.close = server.close;
  return proxy;
}
