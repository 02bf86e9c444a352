import http from "node:http";
import { ALL_PREFIXES } from "../protocol/profiles";
import { startLoopbackServer } from "./loopback-server";

/**
 * What the stub answers to one request. `body` is sent as is; `stream` sends
 * that many bytes in chunks (no Content-Length) and stops early when the
 * client goes away, recording how much it managed to write. `heldUntil`
 * delays a body answer until the promise settles (an upstream still working).
 */
export type StubAnswer =
  | { status?: number; headers?: Record<string, string>; body?: string | object; heldUntil?: Promise<unknown> }
  | { status?: number; stream: { totalBytes: number; chunkBytes?: number } };

export interface StubUpstream {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests seen, as "METHOD /path?query". */
  requests: string[];
  /** Bytes written by streamed answers, per request index. */
  streamed: Map<number, number>;
  /** Decides each answer; the path is the part after the profile prefix, e.g. "/products?page=1…". */
  answer: (req: { method: string; path: string; body: string }) => StubAnswer;
  close(): Promise<void>;
}

/**
 * A hostile or broken supplier on 127.0.0.1 for upstream tests (issue 8.3):
 * any status, any body, redirects, oversized answers. It does not check
 * signatures: the tests are about what our client accepts.
 */
export async function startStubUpstream(): Promise<StubUpstream> {
  const stub: StubUpstream = {
    origin: "",
    requests: [],
    streamed: new Map(),
    answer: () => ({ status: 404, body: { ok: false, error_code: "not_found", error_message: "no route" } }),
    close: () => Promise.resolve(),
  };
  const respond = (res: http.ServerResponse, index: number, request: { method: string; path: string; body: string }) => {
    const a = stub.answer(request);
    if ("stream" in a) {
      const chunk = Buffer.alloc(a.stream.chunkBytes ?? 64 * 1024, 0x20);
      res.writeHead(a.status ?? 200, { "Content-Type": "application/json" });
      let written = 0;
      const pump = () => {
        while (written < a.stream.totalBytes && !res.destroyed) {
          written += chunk.length;
          stub.streamed.set(index, written);
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end();
      };
      res.on("close", () => stub.streamed.set(index, written));
      return pump();
    }
    const body = typeof a.body === "string" ? a.body : JSON.stringify(a.body ?? {});
    const send = () => void res.writeHead(a.status ?? 200, { "Content-Type": "application/json", ...a.headers }).end(body);
    if (a.heldUntil) void a.heldUntil.finally(send);
    else send();
  };
  const server = await startLoopbackServer((req, body, res) => {
    const index = stub.requests.length;
    stub.requests.push(`${req.method} ${req.url}`);
    respond(res, index, {
      method: req.method ?? "GET",
      path: withoutPrefix(req.url ?? "/"),
      body: body.toString("utf8"),
    });
  });
  stub.origin = server.origin;
  stub.close = server.close;
  return stub;
}

/** The part of a request URL after its profile prefix ("/api/v1/upstream/products?page=1" → "/products?page=1"). */
export function withoutPrefix(url: string): string {
  const prefix = ALL_PREFIXES.find((p) => url.startsWith(p.prefix + "/"))?.prefix ?? "";
  return url.slice(prefix.length);
}
